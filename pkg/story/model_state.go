package story

import (
	"cmp"
	"slices"
)

// State is one node of the state tree. Rarely set keys live in More: read
// them through the methods of the same name, set them through Extra.
type State struct {
	Name   string
	Path   string // dotted absolute path, e.g. "pipeline.fix"
	Parent *State
	// Children are the nested states in declaration order.
	Children []*State

	Type        string // "", "atomic", "compound" or "parallel" (not enumerated upstream)
	Description string
	Parallel    bool // Type == "parallel"
	Terminal    bool

	View    *View
	OnEnter []*Effect
	// On holds the on: block's intents ("*" for the wildcard) with their arms,
	// in declaration order; see Arms, HasOn, OnAt and AddOn.
	On []OnIntent

	Intents       map[string]*Intent // state-local intents (nil when none)
	IntentOrder   []string
	RelevantWorld []NamePos

	// More holds the rarely written keys; nil when there is none.
	More *StateMore

	// Import is set on the wrapper state of an imports: alias (Import.Child).
	Import *Import

	Pos Pos
	// Keys holds the position of each written key whose value has no position
	// of its own in the model (decider, footer, on_exit, ...); nil when none.
	Keys map[string]Pos

	story *Story
}

// StateMore holds the state keys few states set, so plain states are small.
type StateMore struct {
	Initial    string // initial child (may be templated)
	InitialPos Pos
	Mode       string // "conversational" for free-form agent rooms
	// OnExit is not in the upstream format: a warning is reported when used.
	OnExit        []*Effect
	Menu          []string
	DefaultIntent string
	RelevantSlots []string
	Footer        string
	Timeout       *Timeout
	AgentOffRamp  *OffRamp
	// ContextualRouting is the raw contextual_routing: block.
	ContextualRouting *ContextualRouting
	Transcript        string
	Theme             string
	InterceptDrive    string
	Decider           string
	WriteMode         string
}

// noStateMore is what a State without More reads as; it is never written.
var noStateMore StateMore

// more returns the State's StateMore for reading: never nil.
func (s *State) more() *StateMore { return cmp.Or(s.More, &noStateMore) }

// extra returns *more, allocating it on first use.
func extra[T any](more **T) *T {
	if *more == nil {
		*more = new(T)
	}
	return *more
}

// The readers of the keys StateMore holds (zero values when More is nil).
func (s *State) Initial() string                       { return s.more().Initial }
func (s *State) InitialPos() Pos                       { return s.more().InitialPos }
func (s *State) Mode() string                          { return s.more().Mode }
func (s *State) OnExit() []*Effect                     { return s.more().OnExit }
func (s *State) Menu() []string                        { return s.more().Menu }
func (s *State) DefaultIntent() string                 { return s.more().DefaultIntent }
func (s *State) Footer() string                        { return s.more().Footer }
func (s *State) Timeout() *Timeout                     { return s.more().Timeout }
func (s *State) AgentOffRamp() *OffRamp                { return s.more().AgentOffRamp }
func (s *State) ContextualRouting() *ContextualRouting { return s.more().ContextualRouting }
func (s *State) Transcript() string                    { return s.more().Transcript }
func (s *State) InterceptDrive() string                { return s.more().InterceptDrive }
func (s *State) Decider() string                       { return s.more().Decider }
func (s *State) WriteMode() string                     { return s.more().WriteMode }

// OnIntent is one intent of a state's on: block with its arms.
type OnIntent struct {
	Intent string
	Pos    Pos
	Arms   []*Transition
}

// OnAt returns the on: entry of intent, or nil when the state has none.
func (s *State) OnAt(intent string) *OnIntent {
	if i := slices.IndexFunc(s.On, func(o OnIntent) bool { return o.Intent == intent }); i >= 0 {
		return &s.On[i]
	}
	return nil
}

// Arms returns the arms of intent (nil when the state has no such entry).
func (s *State) Arms(intent string) []*Transition {
	if o := s.OnAt(intent); o != nil {
		return o.Arms
	}
	return nil
}

// HasOn reports whether on: has an entry for intent, even with no arms.
func (s *State) HasOn(intent string) bool { return s.OnAt(intent) != nil }

// OnNames returns the intents of the on: block in declaration order.
func (s *State) OnNames() []string {
	if len(s.On) == 0 {
		return nil
	}
	out := make([]string, len(s.On))
	for i, o := range s.On {
		out[i] = o.Intent
	}
	return out
}

// AddOn appends arms to intent's entry, adding it (at pos) when missing;
// an existing entry takes pos when pos is set.
func (s *State) AddOn(intent string, pos Pos, arms ...*Transition) {
	if o := s.OnAt(intent); o != nil {
		o.Arms = append(o.Arms, arms...)
		if pos != (Pos{}) {
			o.Pos = pos
		}
		return
	}
	s.On = append(s.On, OnIntent{Intent: intent, Pos: pos, Arms: arms})
}

// NamePos is a name with the position it was written at.
type NamePos struct {
	Name string
	Pos  Pos
}

// Timeout is a state's timeout: block.
type Timeout struct {
	After     string
	Target    string
	TargetPos Pos
	Pos       Pos
}

// OffRamp is agent_off_ramp: either `true` (Enabled with no fields) or a mapping.
type OffRamp struct {
	Enabled bool
	Agent   string
	Persona string
	Banner  string
	Pos     Pos
}

// ContextualRouting is a state's contextual_routing: block.
type ContextualRouting struct {
	Enabled          bool
	HelpChat         any
	RoomChat         string // an intent name, as upstream reads it ("" is no lane)
	MetaChat         any
	PendingPlanPath  string
	PlanAcceptIntent string
	PlanRefineIntent string
	Pos              Pos
}

// Transition is one arm of an on: intent.
type Transition struct {
	Target  string // "" or "." = stay without re-entry
	When    string // expr guard
	Effects []*Effect
	// More holds the keys few arms write; nil when there is none.
	More *TransitionMore
	Pos  Pos
	// TargetAt and WhenAt are where the target: and when: values are, in
	// Pos's file: read them as TargetPos and WhenPos.
	TargetAt, WhenAt LineCol
}

// TargetPos is the position of the target: value (zero when unwritten).
func (t *Transition) TargetPos() Pos { return t.TargetAt.In(t.Pos.File) }

// WhenPos is the position of the when: value (zero when unwritten).
func (t *Transition) WhenPos() Pos { return t.WhenAt.In(t.Pos.File) }

// TransitionMore holds the transition keys few arms write.
type TransitionMore struct {
	Default   bool
	GuardHint string
	View      *View
	Emit      []string
	// PushHistory is nil when absent (default true).
	PushHistory *bool
}

// Extra returns the transition's TransitionMore, allocating it on first use.
func (t *Transition) Extra() *TransitionMore { return extra(&t.More) }

// noTransitionMore is what a Transition without More reads as; it is never written.
var noTransitionMore TransitionMore

// more returns the Transition's TransitionMore for reading: never nil.
func (t *Transition) more() *TransitionMore { return cmp.Or(t.More, &noTransitionMore) }

// The readers of the keys TransitionMore holds (zero values when More is nil).
func (t *Transition) Default() bool     { return t.more().Default }
func (t *Transition) GuardHint() string { return t.more().GuardHint }
func (t *Transition) View() *View       { return t.more().View }
func (t *Transition) Emit() []string    { return t.more().Emit }
