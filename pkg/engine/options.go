package engine

import (
	"context"
	"time"
)

// Input is one --intent with its slots, consumed when the machine rests.
type Input struct {
	Intent string
	Slots  map[string]any
	// Display, when set, is the text the user typed (a flow's input:
	// resolved through a recording): turn.input and turn.start carry it
	// instead of "[intent] <name>" (story-runtime §1.3).
	Display string
	// Start, when set, is turn.start's input instead of turn.input's:
	// [RunSession] gives an input with neither Display nor Start
	// "[direct] intent=<name>", as upstream's headless turn writes it.
	Start string
}

// Options configure one run.
type Options struct {
	SessionID string
	World     World   // initial world (InitWorld); nil = story defaults
	Inputs    []Input // consumed in order when the machine rests
	Agents    AgentCaller
	// HostReplay answers, instead of their handlers, the host calls it
	// handles (a host cassette, pkg/compose); nil = none.
	HostReplay HostReplay
	Sink       Sink       // nil = events dropped
	Notes      func(Note) // human log; nil = none
	// NoSnapshot leaves the session.story snapshot out of the trace.
	NoSnapshot bool
	Now        func() time.Time
	// Wait waits out a state's timeout: (nil = a real timer). It returns
	// ctx's error when ctx ends first.
	Wait func(ctx context.Context, d time.Duration) error
	// HostHooks run before every host call that is not an agent call
	// (host/pre-call hooks); nil = none.
	HostHooks HostHooks
	// Observer is told each part of the story the run reaches (coverage,
	// observer.go); nil = none.
	Observer Observer
	// Strict turns on the checks upstream does not make (--strict): slot
	// types and validators, coerced sets kept, increments of non-integers
	// failing, a set: or bind: holding NaN, an infinity or the whole world
	// failing, and a with: or emit_intent slot holding NaN or an infinity
	// (docs/compat/engine.md).
	Strict bool
	// NoAgentHandlers is upstream's flow rig, which registers no
	// host.agent.<verb> handler: an agent call is answered by a stub or a
	// cassette episode, never checked by agentArgsError.
	NoAgentHandlers bool
}

// Outcome of a run.
const (
	OutcomeExit     = "exit"     // reached @exit:<name>
	OutcomeTerminal = "terminal" // reached a terminal: true state
	OutcomeRested   = "rested"   // rests with no input left and no timeout: to wait for
	OutcomeFailed   = "failed"   // an error stopped the run
)

// Result is how a run ended.
type Result struct {
	Outcome string
	Exit    string // exit name for OutcomeExit
	State   string // final state path (__exit__<name> for exits)
	World   map[string]any
	Calls   []CallSummary
	Turns   int64
	Err     error // set for OutcomeFailed
	// Available lists the intents the resting state handles (OutcomeRested).
	Available []string
	// Unconsumed counts the inputs left when the run ended early.
	Unconsumed int
	// Jobs are the run's background jobs, Inbox its notifications.
	Jobs  []JobInfo
	Inbox []InboxItem
	// Bugs are the run's handler panics, one message each: the run went
	// on, but its exit status must say a failure happened.
	Bugs []string
}

// Finished reports whether the run reached an exit or terminal state.
func (r *Result) Finished() bool {
	return r.Outcome == OutcomeExit || r.Outcome == OutcomeTerminal
}
