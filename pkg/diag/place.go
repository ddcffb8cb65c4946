package diag

import "strconv"

// Place is the state, the state and one of its intents, or the intent a
// finding's message names first (`state "a"`, `state "a" intent "go"`,
// `intent "go"`), kept as data where the finding is made, so that a
// checker can name it again (pkg/lint names a child's places as the fold
// does) and compare findings by it, without reading the message. A
// finding's Place is named as its own file names it.
type Place struct {
	State, Intent string
	kind          placeKind
}

type placeKind uint8

const (
	noPlace placeKind = iota
	statePlace
	arcPlace
	intentPlace
)

// StatePlace is the place `state "path"`.
func StatePlace(path string) Place { return Place{State: path, kind: statePlace} }

// ArcPlace is the place `state "path" intent "intent"`.
func ArcPlace(path, intent string) Place {
	return Place{State: path, Intent: intent, kind: arcPlace}
}

// IntentPlace is the place `intent "name"`.
func IntentPlace(name string) Place { return Place{Intent: name, kind: intentPlace} }

// IsZero reports whether p names no place.
func (p Place) IsZero() bool { return p.kind == noPlace }

// HasState reports whether p names a state.
func (p Place) HasState() bool { return p.kind == statePlace || p.kind == arcPlace }

// HasIntent reports whether p names an intent.
func (p Place) HasIntent() bool { return p.kind == arcPlace || p.kind == intentPlace }

// Renamed is p with its state and intent renamed by state and intent
// (each called only for a name p holds).
func (p Place) Renamed(state, intent func(string) string) Place {
	if p.HasState() {
		p.State = state(p.State)
	}
	if p.HasIntent() {
		p.Intent = intent(p.Intent)
	}
	return p
}

// String is the place as a message starts with it; "" for no place.
func (p Place) String() string {
	switch p.kind {
	case statePlace:
		return "state " + strconv.Quote(p.State)
	case arcPlace:
		return "state " + strconv.Quote(p.State) + " intent " + strconv.Quote(p.Intent)
	case intentPlace:
		return "intent " + strconv.Quote(p.Intent)
	}
	return ""
}
