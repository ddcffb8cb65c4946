package engine

import (
	"cmp"
	"context"

	"kitsoki/pkg/story"
)

// turn is the scratch of the turn being run: what it wrote, said and
// decided about its view. runner.t is replaced by newTurn at each turn
// start, so nothing of a turn reaches the next.
type turn struct {
	events      []Event
	redirectErr string       // the error an on_error redirect handled this turn
	typed       string       // the intent name as fire received it, for machine.intent_accepted
	capView     string       // after a swallowed on_error chain: the state whose view turn.end shows (§2.4)
	capAt       *State       // that state, where upstream's post-bind pass then runs (nil: none runs)
	hopFrom     string       // capView before that pass, when a hop of it moved the session (swallowed.go)
	hopFirst    *firstRender // the turn's first render before that pass, when its own chain was swallowed
	swallowed   bool         // an on_error chain was swallowed this turn (swallowed.go)
	// postSettle: the calls being settled are a post-bind round's; capPostBind:
	// the chain swallowed this turn was one of theirs (swallowed.go)
	postSettle, capPostBind bool
	// capPrePass: turn.end shows the render from before the post-bind
	// pass whose round the depth cap cut, alone (capPostBindLanding)
	capPrePass bool
	// failedBind: a call with a bind: failed with no on_error this turn,
	// so upstream's turn view is empty (keepPrePass keeps none)
	failedBind bool
	// saidAtRedirect is len(said) at the turn's first on_error redirect
	// (-1: none yet; conformance cap-chain-say)
	saidAtRedirect int
	first          *firstRender // the view before dispatch (redirectview.go)
	// emitsOnly: entered states run only their on_enter's emit_intent
	// entries (a turn leaving a parallel configuration)
	emitsOnly   bool
	entered     *[]string // state_entered names held while a move leaves a parallel configuration (parentered.go)
	noView      bool      // upstream renders no view after this move (ancestor.go)
	hop         bool      // the arm being taken is an emit hop's
	synthetic   bool      // a timeout's or background completion's turn (dispatchSynthetic)
	noStatePath bool      // a background completion: events carry no state_path (trace-eval.md A.3)
	said        []sayLine
	sayChain    int // the effect chains run so far (runEffects), numbering said's lines
	// rerender: upstream renders this turn's view again after its calls
	// (story-runtime §8; conformance values-render-env)
	rerender bool
	// applied: the calls bound, submitted, failed with no on_error or were
	// redirected; otherwise, or after on_error "." (dotStay), the first
	// render is kept (conformance on-error-dot-replayed-view,
	// bind-nothing-replayed-view)
	applied bool
	dotStay bool
	// rigView: upstream's turn.end has no view, its flow rig renders the
	// resting state from the replayed world (Turn.RigView)
	rigView bool
	// machineSkipped: a machine-only turn's walk reached a bind, so the
	// machine rendered nothing and no call renders again: its view is
	// empty, narration too (conformance legacy-bind-no-view)
	machineSkipped bool
	// submitOnly: only background submissions that bound nothing set
	// rerender and applied this turn (unsubmit)
	submitOnly bool
	// postGate: the post-bind pass stopped at a gate (conformance
	// postbind-gate-live-view), the state postGateAt (postbind-gate-view)
	postGate   bool
	postGateAt string
	transView  *story.View
	// transAt: the leaf a transition view taken inside a parallel
	// configuration sees as state ("": where the turn rests)
	transAt     string
	batchCost   float64  // agent cost of the batch being dispatched
	batchBound  []string // world keys the batch's calls bound so far
	renderWorld World    // the world a dispatched call's with: renders against (nil: r.world)
	// walkWorld is the call's walk-time world, its with:'s fallback
	// (fellBack: harness.dispatched's rerender_fell_back)
	walkWorld     World
	fellBack      bool
	dispatchState string // the resting state of the batch being dispatched
	dispatching   bool   // dispatchState is set ("" too: the empty path)
	// emptyFrom: where the machine rested when a move went to the empty
	// path (a rendered ".." on a top-level state), nil if none did
	emptyFrom *place
	// lostHop: where the machine rested when a move's machine.transition
	// was lost to upstream's log (its slots hold NaN or an infinity), nil
	// when none was or a logged one came after: the session rests there
	// once the turn ends (lostHop, conformance emit-slots-non-finite)
	lostHop *place
	// loggedAt: while a post-bind pass runs from the originating state of a
	// swallowed on_error chain, where the chain left the session, the
	// last move upstream's log holds until the pass logs one
	// (conformance swallowed-lost-hop)
	loggedAt *place
	// chainOrigin: while a job's on_complete chain settles, the state the
	// completion began in; an on_error naming it moves nothing
	// (conformance oncomplete-redirect-origin)
	chainOrigin string
	// targetPre and targetWalk: the world before a job's on_complete
	// target landed and when that landing's calls went out; landView, when
	// set, is the world an on_error landing's templates read (staleView;
	// conformance oncomplete-redirect-origin)
	targetPre, targetWalk World
	landView              World
	// dropped: what the on_complete chain's dispatch wrote before upstream
	// failed it (dropped.go)
	dropped World
	walk    heldWalk // a transition's walk events (held.go)
	// dropSay: the re-render drops the narration (conformance
	// mutate-say-infra-error)
	dropSay bool
	// emitSay..emitSayEnd is what the post-bind pass's first round said
	// (-1: not yet; conformance postpass-says)
	emitSay, emitSayEnd int
	prePass             *firstRender // before the post-bind pass's last round (postpassview.go)
	inPostBind          bool         // the hops being fired are the post-bind pass's
	// tentative, when set, collects the events written instead of sending
	// them (a post-bind round that may be discarded)
	tentative *[]Event
	// unsent, when set, collects the events written to the turn but not
	// yet sent to the sink: a synthetic turn's, sent when it stands and
	// dropped when it fails (sendOrDrop)
	unsent *[]Event
	render context.Context // the turn's one render budget (renderbudget.go)
	// initials: the templated initial: choices of the move being walked,
	// rendered with its target before the arm's effects (armtarget.go)
	initials map[*State]*State
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

// sayLine is one say: text of the turn and the effect chain (an arm's
// effects, one state's on_enter, an on_complete list) that said it.
type sayLine struct {
	text  string
	chain int
}
