package flowtest

import (
	"encoding/json"
	"sync"

	"kitsoki/pkg/engine"
)

// SaveRecorder is the engine.Sink of `kitsoki run --save-fixture`: it
// keeps the events [SaveFixture] needs and forwards every event.
type SaveRecorder struct {
	next engine.Sink

	mu     sync.Mutex
	events []savedEvent
}

// savedEvent is an event the recorder kept, its payload as JSON values.
type savedEvent struct {
	turn    int64
	kind    string
	state   string
	payload map[string]any
}

// NewSaveRecorder records a run's events and passes them on to next (nil:
// recorded only).
func NewSaveRecorder(next engine.Sink) *SaveRecorder {
	return &SaveRecorder{next: next}
}

// savedKinds are the events a fixture is built from.
var savedKinds = map[string]bool{
	engine.KindTurnInput:       true,
	engine.KindWorldUpdate:     true,
	engine.KindHarnessCalled:   true,
	engine.KindHarnessReturned: true,
	engine.KindJobSubmitted:    true,
	engine.KindTimeout:         true,
	engine.KindTurnStart:       true,
	engine.KindTurnEnd:         true,
}

// Emit keeps the event when a fixture needs it and forwards it.
func (r *SaveRecorder) Emit(ev engine.Event) error {
	if savedKinds[ev.Kind] {
		se := savedEvent{turn: ev.Turn, kind: ev.Kind, state: ev.StatePath}
		// a JSON copy: the engine's maps are its own
		if b, err := json.Marshal(ev.Payload); err == nil {
			_ = json.Unmarshal(b, &se.payload)
		}
		r.mu.Lock()
		r.events = append(r.events, se)
		r.mu.Unlock()
	}
	if r.next == nil {
		return nil
	}
	return r.next.Emit(ev)
}

func (r *SaveRecorder) recorded() []savedEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]savedEvent(nil), r.events...)
}
