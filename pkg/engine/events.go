package engine

import "time"

// Event kinds the engine writes (trace-eval.md A.7): the whole vocabulary
// of [Event.Kind], for a [Sink] or a reader of [Turn.Events] that picks
// events out by kind.
const (
	KindSessionStory      = "session.story" // the turn-0 snapshot of the story files
	KindTurnInput         = "turn.input"
	KindTurnStart         = "turn.start"
	KindTurnEnd           = "turn.end"
	KindIntentAccepted    = "machine.intent_accepted"
	KindValidationFailed  = "machine.validation_failed"
	KindTransition        = "machine.transition"
	KindStateExited       = "machine.state_exited"
	KindStateEntered      = "machine.state_entered"
	KindSay               = "machine.say"
	KindMachineError      = "machine.error"
	KindEmitIntent        = "machine.emit_intent"
	KindGateDecided       = "machine.gate_decided" // a decision at a gate (story-runtime §1.9)
	KindTimeout           = "machine.timeout"      // annotates a synthetic timeout turn
	KindWorldUpdate       = "world.update"
	KindHarnessCalled     = "harness.called"
	KindHarnessDispatched = "harness.dispatched"
	KindHarnessReturned   = "harness.returned"
	KindHarnessError      = "harness.error"
	KindJobSubmitted      = "scheduler.submitted" // a background job started (story-runtime §5)
	KindJobCompleted      = "scheduler.completed" // a background job ended
)

// Event is one trace event as the engine produces it. The writer assigns
// seq; TS zero means "now".
type Event struct {
	Turn      int64
	Kind      string
	StatePath string
	CallID    string
	EpisodeID string
	MatchIdx  int
	TS        time.Time
	Payload   any
}

// Sink receives every event of a run, in order. The run fails when Emit
// returns an error (a trace that cannot be written is not a trace).
type Sink interface {
	Emit(ev Event) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event) error

// Emit calls f(ev).
func (f SinkFunc) Emit(ev Event) error { return f(ev) }

// Note is one line of the human log: what the caller may print while the
// run goes on.
type Note struct {
	Kind     string // "enter", "say", "agent", "host", "intent", "emit", "on_error", "timeout", "decider", "job", "view", "end"
	State    string
	Text     string
	Duration time.Duration
	// Error is what failed: the note's own failure, or for a move (To set)
	// the failure that caused it, already told by the failed call's note.
	Error string
	// To is where a move went (a state's path, __exit__NAME or "."): set
	// on an on_error redirect and a fired timeout, "" on a note that moved
	// nothing.
	To string
}

func (r *runner) emit(kind string, payload any) error {
	return r.emitAt(r.statePathForEvent(), kind, payload)
}

func (r *runner) emitAt(statePath, kind string, payload any) error {
	ev := Event{Turn: r.turn, Kind: kind, StatePath: statePath, TS: r.now(), Payload: payload}
	if kind == KindTransition {
		r.noteTransition(false) // on_error, a timeout, a job's target: logged
	}
	if r.t.walk.add(ev) {
		return nil
	}
	return r.write(ev)
}

// write records ev in the turn and sends it to the sink (or holds it
// while a post-bind pass is tentative).
func (r *runner) write(ev Event) error {
	if ev.Payload != nil && finite(ev.Payload) != nil {
		// upstream's log cannot encode it: the event keeps no payload
		// (conformance with-non-finite; a lost set's world.update alike)
		ev.Payload = nil
	}
	if r.t.tentative != nil {
		*r.t.tentative = append(*r.t.tentative, ev)
		return nil
	}
	r.t.events = append(r.t.events, ev)
	if ev.Kind == KindWorldUpdate {
		r.noteWritten(ev.Payload)
	}
	if r.t.unsent != nil {
		*r.t.unsent = append(*r.t.unsent, ev)
		return nil
	}
	return r.send(ev)
}

// send gives ev to the sink.
func (r *runner) send(ev Event) error {
	if r.so.Sink == nil {
		return nil
	}
	if err := r.so.Sink.Emit(ev); err != nil {
		return &traceErr{err: err}
	}
	return nil
}

func (r *runner) note(n Note) {
	if r.so.Notes != nil {
		r.so.Notes(n)
	}
}
