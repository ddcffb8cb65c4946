package engine

import (
	"cmp"
	"context"

	"kitsoki/pkg/story"
)

// turn is the scratch of the turn being run: what the turn wrote, said
// and decided about its view. A runner holds one (runner.t), replaced by
// a fresh newTurn at each turn start, user or synthetic, so nothing of a
// turn reaches the next; the session's own state (configuration, world,
// clock, jobs, the journal of written keys) stays on the runner.
type turn struct {
	events      []Event
	redirectErr string // the error an on_error redirect handled this turn
	typed       string // the intent name as fire received it, for machine.intent_accepted
	capView     string // after a swallowed on_error chain: the state whose view turn.end shows (§2.4)
	capAt       *State // that state, where upstream's post-bind pass then runs (nil: none runs)
	swallowed   bool   // an on_error chain was swallowed this turn (swallowed.go)
	// postSettle: the calls being settled are a post-bind round's; capPostBind:
	// the chain swallowed this turn was one of theirs (swallowed.go)
	postSettle, capPostBind bool
	// saidAtRedirect is len(said) when the turn's first on_error redirect
	// was taken (-1: none yet): what a chain cut by the depth cap shows
	// of the narration (conformance cap-chain-say)
	saidAtRedirect int
	// first is the turn's view as upstream first rendered it, before its
	// calls were dispatched, kept from the first failing call of a batch
	// that had bound nothing (redirectview.go)
	first *firstRender
	// emitsOnly: the states being entered run only the emit_intent
	// entries of their on_enter (a turn leaving a parallel configuration)
	emitsOnly bool
	// noView: the turn moved in a way after which upstream renders no
	// view (a parallel root re-placing its regions, ancestor.go)
	noView bool
	// hop: the arm being taken is an emit hop's (fire's depth > 0)
	hop bool
	// synthetic: a turn no user intent asked for (a timeout, a
	// background completion), whose dispatch a failing view drops
	// (dispatchSynthetic)
	synthetic bool
	// noStatePath: a background completion, whose events (on_complete's
	// world.update, say, calls) carry no state_path, as upstream's
	// (statePathForEvent; docs/compat/trace-eval.md A.3)
	noStatePath bool
	said        []string
	// rerender: upstream renders this turn's view again after its calls
	// (story-runtime §8), without the turn's slots, its say narration and
	// the transition's view: a call bound something, submitted a job, was
	// redirected by on_error, or failed outright with no on_error; a
	// domain error, or any failure with on_error: ".", keeps the first
	// render (conformance values-render-env)
	rerender bool
	// applied: the calls bound something, submitted a job, failed with
	// no on_error or were redirected, which upstream renders again after
	// from the live world. A batch that held a bind but applied nothing
	// (or whose failure's on_error "." stopped it: dotStay) keeps the
	// machine's first render, which upstream skipped for that bind:
	// turn.end has no view and the flow rig renders the resting state
	// against the world read back from the log (conformance
	// on-error-dot-replayed-view, bind-nothing-replayed-view)
	applied bool
	dotStay bool
	// postGate: the post-bind pass stopped at a gate, after which upstream
	// renders the view again from the live world, dotStay or not
	// (conformance postbind-gate-live-view)
	postGate  bool
	transView *story.View
	// transAt: the leaf a transition view taken inside a parallel
	// configuration sees as state ("": where the turn rests)
	transAt     string
	batchCost   float64  // agent cost of the batch being dispatched
	batchBound  []string // world keys the batch's calls bound so far
	renderWorld World    // the world a dispatched call's with: renders against (nil: r.world)
	// walkWorld is the world at the call's place in the chain without the
	// batch's binds: a with: that cannot render at dispatch renders
	// against it, as upstream falls back to the walk-time args
	// (fellBack: harness.dispatched's rerender_fell_back)
	walkWorld     World
	fellBack      bool
	dispatchState string // the resting state of the batch being dispatched
	// walk holds a transition's walk events for upstream's order (held.go)
	walk heldWalk
	// dropSay: the turn re-renders after something the batch bound or
	// redirected; a call failing alone (an infra error with no on_error)
	// re-renders too, but when that render is empty the turn keeps its
	// narration (conformance mutate-say-infra-error)
	dropSay bool
	// emitSay is the index in said of the first line a post-bind hop said
	// (-1 = no post-bind hop fired this turn); emitSayEnd the end of what
	// the pass's first round said firing its hops (-1: not yet): upstream
	// shows that round's narration only, not its dispatch's (a redirect
	// landing's on_enter) nor a later round's (conformance postpass-says)
	emitSay, emitSayEnd int
	// prePass is the turn's render as it stood before the post-bind
	// pass's last round: upstream keeps it when the hops' resting state
	// renders an empty view (postpassview.go)
	prePass *firstRender
	// inPostBind: the hops being fired are the post-bind pass's (staged
	// mode stops them at a decision gate, story-runtime §1.9)
	inPostBind bool
	// tentative, when set, collects the events written instead of sending
	// them: a post-bind pass that fails is discarded whole (emits.go)
	tentative *[]Event
	// render carries the one render budget every template of the turn
	// spends (renderbudget.go); nil until the turn's first render
	render context.Context
}

func newTurn() turn {
	return turn{emitSay: -1, emitSayEnd: -1, saidAtRedirect: -1}
}

// acceptedName is the name machine.intent_accepted records: the typed
// spelling fire saw, else the arc's.
func (t *turn) acceptedName(intent string) string {
	name := cmp.Or(t.typed, intent)
	t.typed = ""
	return name
}

// narration is the say lines turn.end shows before the view: all of the
// turn's; after a post-bind hop only those the hops said (upstream shows
// the pass's own result: random differential 091, conformance
// postpass-view); after a re-render with no such hop, none (§8).
func (t *turn) narration() []string {
	switch {
	case t.emitSay >= 0 && t.emitSay < len(t.said):
		if t.emitSayEnd >= t.emitSay && t.emitSayEnd < len(t.said) {
			return t.said[t.emitSay:t.emitSayEnd]
		}
		return t.said[t.emitSay:]
	case t.emitSay >= 0 || t.rerender:
		return nil
	}
	return t.said
}
