package flowtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// A turn fired where the fixture certainly rests (a plain leaf, or a
// parallel configuration) whose move the hand model does not follow —
// emits that move several regions (lint_par_leaves.go), a receiver
// leaving the parallel state, a receiver writing the root's encoding into
// its place, a chain of emits back to the sender, an entry into an
// imported child's parallel state (conformance par-emit-leave,
// par-emit-root-many, par-emit-root-initial, emit-place-receivers,
// par-cross-receiver-slot) — is run on the engine's own machine instead
// (engine.Start, Session.Fire), started there on the world the lint
// certainly knows, and so is every turn after it while each stays
// followable. That machine is the one the conformance goldens hold to
// upstream's, so a rejection it gives, or a state other than the turn's
// expect_state, fails the fixture on both engines.
//
// The run starts at the first turn fired where the lint is certain of
// both the rest and the world (the fixture's first turn: on the world
// the rig starts on, rigWorld, its numbers of the rig's Go types), and
// runs beside the lint's own walk
// (replayBeside): a turn the walk warns at (turn's findings too) ends it
// quietly, a turn the walk follows without a finding is fired on it as
// well, and it warns where the walk did not (a templated slot, a guard
// reading a slot, a stay at a state whose on_enter emits). Where the walk
// loses the rest, the run owns it from there (replayed).
//
// Followed only where nothing the machine would do depends on what the
// lint cannot give it: a story (folded, every state's effects and arms)
// with no agent, selection or nested effects, effect target, once: call
// (the run, started mid-fixture, has not made the calls before it), {{ }}
// target, initial:, on_error or event name, nor a decider: human gate,
// and no on_complete but a background job's of such effects and literal
// targets, whose calls the fixture answers without side effects
// (replayHosts: its host_handlers, on the orchestrator path, and no
// other call's; none is dispatched on the legacy path; a job answered at
// once is landed as the rig lands it, but the run follows no intent while
// one is out, upstream's listener racing it: replayRaces); no job out
// when the run starts; the ids jobs get, and what
// holds them, left unknown (replayWorld); a world
// every key of which is certain; a start on a plain leaf, or on a
// configuration with one leaf in each region printed as the engines
// print it, or, for the fixture's first turn, on a parallel initial_state
// an entry of which is no state under a region (unknownLeafStart), on the one-shot path (the legacy path, or staged from the first turn: replayMode); turns that fire an intent (its slots
// sent as the rig sends them) with no world_override, advance_clock,
// input or expect_error, or, on a story with no timeout:, only advance
// the clock (replayClock). A turn expecting a rejection is fired too and
// its code judged (replayExpectError), and ends the run; an accepted
// turn's expect_events and expect_events_exact are judged on the events
// it wrote (lint_replay_events.go). The first turn
// that is not followed ends the run, and the fixture is judged from
// there as resting where the lint does not know, on a world it does not
// know. After the last turn, a plain leaf the run rests at is where the
// fixture ends (replayLast).

// parReplay is a run of the engine's machine that follows the fixture's
// turns (fixtureLint.replay; nil: none).
type parReplay struct {
	sess *engine.Session
	// from says where it started and why, for messages
	from string
	// turns counts the turns it followed
	turns int
	// numbers: the world the run started on holds a whole number whose
	// Go type (an integer or a float) the lint's known world may not
	// share with the rig's, and a view renders by it (replayView)
	numbers bool
	// first: the run started at the fixture's first turn as the rig
	// starts (replayFirst), so the events it writes are the rig's, their
	// payloads too (replayEvents)
	first bool
	// quiet: no job landed in the turn last fired, and none answered at
	// once is out after it, so its view and events are the rig's on a
	// story with background jobs too (replayLandFire)
	quiet bool
	// advanced: the turn last fired advanced the clock after its intent
	// (replayTimedAdvance)
	advanced bool
	// fired: the intent the turn last fired sent (its own, or the
	// recording's answer to its input: lint_replay_input.go)
	fired string
	// owns: the lint lost where the fixture rests, and the run alone
	// follows the turns (replayed); else it runs beside the lint's own
	// walk, judging what that walk does not (replayBeside)
	owns bool
}

// close ends the run (nil-safe).
func (p *parReplay) close() {
	if p != nil && p.sess != nil {
		_ = p.sess.Close()
	}
}

// endReplay ends the fixture's run of the engine, if any: where a run
// that owned the rest leaves the fixture, and what it holds, are no
// longer known.
func (l *fixtureLint) endReplay() {
	if l.replay == nil {
		return
	}
	owned := l.replay.owns
	l.replay.close()
	l.replay = nil
	if owned {
		l.rest = rest{}
		l.world.loseAll()
	}
}

// replayLast ends the fixture's run after its last turn: where it rests
// at a plain leaf and the lint's walk is not certain of one (the run
// owns the rest, or the walk leaves alternatives), that leaf (and the
// world the machine holds) is where the fixture certainly ends, for the
// checks after the turns (notTerminal: conformance cap-rest-neighbours
// terminal, the on_error cap resting at the originating state).
func (l *fixtureLint) replayLast() {
	rp := l.replay
	if rp == nil || !rp.owns && l.rest.at != nil && len(l.rest.alt) == 0 {
		l.endReplay()
		return
	}
	at := l.ix.plainLeaf(rp.sess.State())
	if at == nil || inParallel(at) {
		l.endReplay()
		return
	}
	how := l.replayHow()
	rp.close()
	l.replay = nil
	l.rest = rest{at: at, from: "it rests there on " + how}
}

// replayed follows t on the fixture's run of the engine, when there is
// one and t is followable, and reports whether it did (the turn is then
// judged here alone). A turn that is not followable ends the run: the
// fixture is judged from there as resting where the lint does not know,
// on a world it does not know.
func (l *fixtureLint) replayed(t *Turn) bool {
	if l.replay == nil || !l.replay.owns {
		return false
	}
	if l.replayClock(t) {
		l.replayAdvance(t)
		return true
	}
	if replayErrorTurn(t) {
		l.replayExpectError(t)
		return true
	}
	if !l.replayFollows(t, l.replay.first) {
		l.endReplay()
		return false
	}
	l.replayFire(t, true)
	return true
}

// replayAdvance moves the run's clock by t's advance_clock, landing the
// jobs due by then, and judges t's expect_state there; the known world
// becomes the machine's.
func (l *fixtureLint) replayAdvance(t *Turn) {
	rp := l.replay
	if l.ix.background && (t.AdvanceClock < 0 || rp.sess.AdvanceClock(context.Background(), t.AdvanceClock) != nil) {
		l.endReplay()
		return
	}
	rp.turns++
	if replayStateWrong(t, rp.sess.State()) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn only advances the clock, on a story with no timeout:, and the fixture rests at %q on %s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, *t.ExpectState, rp.sess.State(), l.replayHow(), rp.sess.State())
		l.endReplay()
		return
	}
	if l.replayStateAsserted(t, rp.sess.State(), "it only advances the clock, on a story with no timeout:, on "+l.replayHow()) {
		l.endReplay()
		return
	}
	l.replayWorld()
}

// replayPre is the world before a turn fired at r that startReplay may
// need: a copy of w, the known world before it, where it is certain and
// r is a state or configuration on a story the run may follow; nil
// elsewhere.
func (l *fixtureLint) replayPre(t *Turn, r rest, w *knownWorld) *knownWorld {
	if (r.in == nil && r.at == nil && !l.unknownLeafStart(t, r)) || !certainWorld(w) || !l.replayable() {
		return nil
	}
	return w.clone()
}

// startReplay runs t, fired at r (a certain state or configuration after
// which the hand model left the rest unknown, or knows only the parallel
// state it is in) on the engine's machine started there on the world pre
// (the one before t), and judges it; the run goes on for the turns after
// while it is not ended.
func (l *fixtureLint) startReplay(t *Turn, r rest, pre *knownWorld) {
	if l.replay != nil {
		if !l.replayFollows(t, l.replay.first) && !l.replayClock(t) && !replayErrorTurn(t) {
			l.replay.close()
			l.replay = nil
		}
		return
	}
	start, ok := l.replayStart(r)
	unknownStart := !ok && l.unknownLeafStart(t, r)
	if unknownStart {
		start, ok = l.fx.InitialState, true
		r.from = "the fixture starts (initial_state), an entry of it no state under a region"
	}
	if len(l.jobs) > 0 || l.jobsLost {
		return // a job started before the run would land unseen by it
	}
	first := l.replayFirst(t, start)
	mode, modeOK := l.replayMode(first)
	if pre == nil || !ok || !modeOK || !l.replayFollows(t, first) || !certainWorld(pre) {
		return
	}
	m := l.ix.compiledMachine()
	if m == nil {
		return
	}
	reg, _ := l.replayHosts()
	if !l.steps.spend(1) {
		return // the story's walks spent their budget: no run either
	}
	o := engine.SessionOptions{
		Options:    engine.Options{NoSnapshot: true, NoAgentHandlers: true, Sink: l.steps.sink()},
		Hosts:      reg,
		Views:      l.ix.views, // as the rig renders them: a landing's view may fail
		StartState: start, StartFlat: true, UnarmedStart: true,
		Clock: engine.NewVirtualClock(epoch), MachineOnly: !l.fx.Orchestrated(), Mode: mode,
	}
	numbers := false
	if first {
		// the rig's own start: its world, each number the Go type the
		// rig gives it, initial_world's keys seeded (replaying as sets)
		// and the timeout armed as the rig arms it
		w, err := rigWorld(m, l.fx, !l.fx.Orchestrated())
		if err != nil {
			return
		}
		o.World, o.UnarmedStart = w, l.fx.InitialState == ""
		for _, kv := range l.fx.InitialWorld {
			o.Seeded = append(o.Seeded, kv.Key)
		}
	} else {
		w, _ := jsonvalue.CopyNilAsEmpty(map[string]any(pre.vals)).(map[string]any) // the session's own copy
		rigCosts(w)
		o.World, numbers = w, l.ix.wholeNumbers(w)
	}
	l.steps.world = valueNodes(o.World)
	sess, err := engine.Start(context.Background(), m, o)
	if err != nil {
		if sess != nil {
			_ = sess.Close()
		}
		return
	}
	if sess.State() != start && !unknownStart {
		_ = sess.Close()
		return
	}
	l.replay = &parReplay{sess: sess, from: fmt.Sprintf("%q (where %s)", start, r.from), numbers: numbers, first: first}
}

// replayMode is the execution mode the run takes, as the rig sets it
// (fixtureRun's session options): the legacy path ignores mode:; on the
// orchestrator path a staged fixture runs staged, followed only on a run
// started at the first turn as the rig starts (a rest the walk found
// assumes one-shot emit chains). ok is false where it is not followed.
func (l *fixtureLint) replayMode(first bool) (string, bool) {
	switch {
	case !l.fx.Orchestrated() || l.fx.Mode == "" || l.fx.Mode == "oneshot" || l.fx.Mode == "one-shot":
		if l.fx.Orchestrated() && l.fx.Mode != "" {
			return engine.ModeOneShot, true
		}
		return "", true
	case l.fx.Mode == "staged" && first:
		return engine.ModeStaged, true
	}
	return "", false
}

// replayFirst reports whether t, fired at start, is the fixture's first
// turn, fired where the rig starts (its initial_state, or anywhere the
// root leads without one): the run then starts as the rig does.
func (l *fixtureLint) replayFirst(t *Turn, start string) bool {
	fx := l.fx
	return len(fx.Turns) > 0 && fx.Turns[0] == t && (fx.InitialState == "" || fx.InitialState == start)
}

// replayBeside fires t on the run beside the lint's walk, once the walk
// judged t (warned: it found the fixture failing, and the run ends). The
// run warns where the walk did not; where the walk lost the fixture's
// rest, the run owns it from here (replayed).
func (l *fixtureLint) replayBeside(t *Turn, warned bool) {
	rp := l.replay
	if rp == nil || rp.owns {
		return
	}
	if warned {
		rp.close()
		l.replay = nil
		return
	}
	if l.rest.at == nil && len(l.rest.leaves) == 0 && l.rest.exit == "" {
		rp.owns = true
		l.rest = rest{} // the run knows where the fixture rests, the lint no longer
	}
	switch {
	case t.Intent == nil && !t.HasInput:
		l.replayAdvance(t) // a clock turn (startReplay kept the run for no other)
	case t.ExpectError != nil:
		l.replayExpectError(t)
	default:
		l.replayFire(t, false)
	}
}

// replayFire fires t's intent on the run and judges the turn: a
// rejection, or a resting state other than its expect_state, is warned
// at and ends the run, as does a turn the machine cannot take. The known
// world becomes the machine's, on which world judges t's expect_world
// (the run's first turn is judged by rejected, as any other).
func (l *fixtureLint) replayFire(t *Turn, world bool) {
	turn, before, ok := l.replayLandFire(t)
	if !ok {
		return
	}
	if !l.replayTimedAdvance(t, turn) {
		return
	}
	how, rp := l.replayHow(), l.replay
	state := rp.sess.State() // after the turn's advance, as the rig checks it
	switch {
	case turn.Err != nil:
		l.endReplay()
	case turn.Rejection != nil && (!l.fx.Orchestrated() || turn.Rejection.Code != engine.CodeMissingSlots):
		// every rejection fails the turn but the orchestrator's missing
		// slot, a clarification that moves nothing (flow-format §3.6)
		code := turn.Rejection.Code
		l.warn(firedPos(t), ruleRejected, "turns[%d]: %s, fired at %q, is rejected %s by %s: the turn is rejected on both engines, if the fixture gets this far; fire an intent taken there, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
			t.Index, firedIntent(t, rp.fired), before, code, how, code)
		l.endReplay()
	case replayStateWrong(t, state):
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but %s, fired at %q, rests at %q on %s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, *t.ExpectState, firedName(t, rp.fired), before, state, how+rp.advancedBy(t), state)
		l.endReplay()
	case l.replayStateAsserted(t, state, fmt.Sprintf("%s, fired at %q, on %s", firedName(t, rp.fired), before, how+rp.advancedBy(t))):
		l.endReplay()
	case l.replayEvents(t, turn, before) || l.replayView(t, turn, before):
		l.endReplay()
	default:
		// the world the machine holds now is the one the fixture
		// certainly holds: its expect_world is judged on it
		l.replayWorld()
		if world && l.worldExpected(t) {
			l.endReplay()
		}
	}
}

// replayStateWrong reports whether t's expect_state fails where the run
// rests at state: the rig compares the two paths as written (an empty
// one asserts nothing), so one naming no state of the story fails there
// too, where the walk's own checks leave it to flow-unknown-state.
func replayStateWrong(t *Turn, state string) bool {
	return t.ExpectState != nil && *t.ExpectState != "" && *t.ExpectState != state
}

// replayStateAsserted judges t's expect_not_state and expect_state_in
// where the run rests at state (stateAssertFails), as the rig compares
// them; why says how it got there. It reports whether it warned.
func (l *fixtureLint) replayStateAsserted(t *Turn, state, why string) bool {
	return t.ExpectError == nil && assertsOtherState(t) && l.stateAssertFails(t, []string{state}, why)
}

// replayLandFire lands the run's finished jobs, as the rig lands them
// between turns, and fires t's intent (its slots sent as the rig sends
// them), returning the turn and the state it was fired at; ok is false,
// the run ended, when the machine cannot take it.
func (l *fixtureLint) replayLandFire(t *Turn) (turn *engine.Turn, before string, ok bool) {
	rp := l.replay
	if l.replayRaces() {
		l.endReplay()
		return nil, "", false
	}
	landed := endedJobs(rp.sess)
	if err := rp.sess.Land(context.Background()); err != nil {
		l.endReplay()
		return nil, "", false
	}
	before = rp.sess.State()
	in, ok := l.replayInput(t, before)
	if !ok {
		l.endReplay()
		return nil, "", false
	}
	rp.fired = in.Intent
	turn, err := rp.sess.Fire(context.Background(), in)
	rp.turns++
	if err != nil || turn == nil {
		l.endReplay()
		return nil, "", false
	}
	rp.quiet = endedJobs(rp.sess) == landed && !l.replayRaces()
	return turn, before, true
}

// replayRaces reports whether a job the run started is still out
// answered at once: the rig lands it before the next intent (Land), but
// upstream's listener lands it in real time, racing that intent (most
// runs land it first, not all: lint_jobs_land.go's raceLand; docs/compat
// engine.md's job-landing races), so the run follows no intent past it.
// A job answered after a delay lands only in an advance_clock.
func (l *fixtureLint) replayRaces() bool {
	delay := map[string]time.Duration{}
	for _, st := range l.fx.HostHandlers {
		delay[st.Name] = st.Delay
	}
	for _, j := range l.replay.sess.Jobs() {
		if !j.Ended.IsZero() {
			continue // landed
		}
		served, _, ok := host.Route(l.ix.bound(j.Namespace), func(n string) bool { _, ok := delay[n]; return ok })
		if !ok || delay[served] <= 0 {
			return true
		}
	}
	return false
}

// endedJobs counts the jobs of sess that landed (their completion turn
// ran: Ended is set then, while the store's status reads done as soon as
// the answer is in).
func endedJobs(sess *engine.Session) int {
	n := 0
	for _, j := range sess.Jobs() {
		if !j.Ended.IsZero() {
			n++
		}
	}
	return n
}

// replayExpectError fires t's intent (a replayErrorTurn) on the run and
// judges its expect_error: a turn the machine accepts, or rejects with
// another code, fails on both engines ("expected error … but got none",
// the mode whatever it is; "code got …"), the orchestrator's missing
// slot aside (a clarification, judged by lint_error_code.go). The run
// ends there either way: the legacy path throws an accepted turn away
// and restarts its rig (fixture_check.go's errorTurn), which the run
// does not follow.
func (l *fixtureLint) replayExpectError(t *Turn) {
	ee := t.ExpectError
	turn, before, ok := l.replayLandFire(t)
	if !ok {
		return
	}
	how := l.replayHow()
	switch {
	case turn.Err != nil:
	case turn.Rejection == nil:
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q, fired at %q, is accepted by %s, resting at %q: neither engine rejects it, so the turn always fails (expected error %q but got none); drop expect_error and assert where it leads, or fix the turns before it",
			t.Index, ee.Code, t.Intent.Name, before, how, turn.State, ee.Code)
	case turn.Rejection.Code != ee.Code && (!l.fx.Orchestrated() || turn.Rejection.Code != engine.CodeMissingSlots):
		code := turn.Rejection.Code
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q, fired at %q, is rejected %s by %s: the code differs on both engines, so the turn always fails; expect_error: {code: %s}, or fix the turns before it",
			t.Index, ee.Code, t.Intent.Name, before, code, how, code)
	}
	l.endReplay()
}

// replayErrorTurn reports whether t is a turn replayExpectError judges:
// an intent (its slots sent as the rig sends them) expecting one of the
// rejection codes, with no world_override, advance_clock or input.
func replayErrorTurn(t *Turn) bool {
	return t.ExpectError != nil && slices.Contains(rejectionCodes, t.ExpectError.Code) && t.Intent != nil && t.Intent.Name != "" &&
		len(t.WorldOverride) == 0 && !t.HasAdvance && !t.HasInput
}

// replayWorld makes the known world the one the run's machine holds.
func (l *fixtureLint) replayWorld() {
	if l.world == nil {
		return
	}
	vals := map[string]any{}
	for k, v := range l.replay.sess.World() {
		vals[k] = jsonvalue.Normalize(v)
	}
	l.world.vals, l.world.dirty, l.world.lost = vals, map[string]bool{}, false
	if !l.ix.background {
		return
	}
	// a job's id is a new random one on each upstream run, and so is
	// what holds one (last_job_id, a job_id bind, a copy) and the inbox
	l.world.dirty[story.WorldLastJobID], l.world.dirty[story.WorldInbox] = true, true
	var ids []string
	for _, j := range l.replay.sess.Jobs() {
		if j.ID != "" {
			ids = append(ids, j.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	for k, v := range vals {
		if holdsAny(v, ids) {
			l.world.dirty[k] = true
		}
	}
}

// holdsAny reports whether a string of v, a map key or a leaf at any
// depth, holds one of ids.
func holdsAny(v any, ids []string) bool {
	has := func(s string) bool {
		return slices.ContainsFunc(ids, func(id string) bool { return strings.Contains(s, id) })
	}
	switch x := v.(type) {
	case string:
		return has(x)
	case map[string]any:
		for k, e := range x {
			if has(k) || holdsAny(e, ids) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(x, func(e any) bool { return holdsAny(e, ids) })
	}
	return false
}

// replayHow says, for a message, how the run followed the fixture.
func (l *fixtureLint) replayHow() string {
	return fmt.Sprintf("the engine's own machine, run from %s through %d turn(s)%s", l.replay.from, l.replay.turns, l.replayCalls())
}

// replayCalls says, for a message, who answers the story's calls on the run.
func (l *fixtureLint) replayCalls() string {
	switch {
	case len(l.ix.invoked) == 0:
		return " of a story that calls nothing"
	case !l.fx.Orchestrated():
		return " on the legacy path, which dispatches no call"
	}
	return fmt.Sprintf(", its calls answered by this fixture's %s", l.answerer())
}

// replayTurn reports whether t is a turn the run follows: an intent
// (its slots sent as the rig sends them) with no world_override,
// advance_clock, input or expect_error.
func replayTurn(t *Turn) bool {
	return t.Intent != nil && t.Intent.Name != "" && len(t.WorldOverride) == 0 && !t.HasAdvance && !t.HasInput && t.ExpectError == nil
}

// replayClock reports whether t only advances the clock on a story where
// no state has a timeout: the run goes on past it (landing, on a story
// with background jobs, those due by then), judging its expect_state.
func (l *fixtureLint) replayClock(t *Turn) bool {
	if t.Intent != nil || t.HasInput || !t.HasAdvance || len(t.WorldOverride) > 0 || t.ExpectError != nil {
		return false
	}
	return l.ix.noTimeouts()
}

// replayStart is where the run starts for a turn fired at r: a plain
// leaf (outside any parallel state, a state of the story), or a parallel
// state's configuration with one leaf in each region printed as the
// engines print it (the mode judged by replayMode). ok is false elsewhere.
func (l *fixtureLint) replayStart(r rest) (string, bool) {
	if len(r.alt) > 0 {
		return "", false
	}
	if r.in == nil {
		if r.at == nil || l.ix.plainLeaf(r.at.Path) != r.at {
			return "", false
		}
		return r.at.Path, true
	}
	if r.at != nil || len(r.leaves) == 0 || !oneLeafEach(r.in, r.leaves) || !oneRegionEach(r.in, r.leaves) {
		return "", false
	}
	if r.spelling != "" && r.spelling != parPath(r.in, r.leaves) {
		return "", false
	}
	return r.printed(), true
}

// certainWorld reports whether every key of w is certain.
func certainWorld(w *knownWorld) bool {
	return w != nil && !w.lost && len(w.dirty) == 0
}

// replayable reports whether the fixture's turns may run on the engine's
// machine: the story has the shape replayShape judges, and every call it
// makes is one the fixture serves without side effects (replayHosts).
func (l *fixtureLint) replayable() bool {
	ix := l.ix
	if !ix.replayDone {
		ix.replayDone, ix.replayOK = true, ix.replayShape()
	}
	if !ix.replayOK {
		return false
	}
	_, ok := l.replayHosts()
	return ok
}

// replayShape is replayable's judgement of the story, made once: not
// unfolded, no background job or human gate, every effect of every
// state (on_enter, on_exit, each arm's) a replayEffect, every arm a
// replayArm, no templated initial:, and no once: call (a run started
// mid-fixture has not made the calls before it).
func (ix *storyIndex) replayShape() bool {
	if ix.unfolded {
		return false
	}
	jobs := func(e *story.Effect) bool {
		return len(e.OnComplete()) == 0 || completeEffects(e.OnComplete())
	}
	for _, s := range ix.byPath {
		if s.Decider() == "human" || story.IsTemplated(s.Initial()) || !allEffects(s.OnEnter, replayEffect) || !allEffects(s.OnExit(), replayEffect) ||
			!allEffects(s.OnEnter, jobs) || !allEffects(s.OnExit(), jobs) {
			return false
		}
		for _, on := range s.On {
			if slices.ContainsFunc(on.Arms, func(a *story.Transition) bool { return a != nil && (!replayArm(a) || !allEffects(a.Effects, jobs)) }) {
				return false
			}
		}
	}
	return true
}

// replayHosts is the registry the run dispatches calls to, as the rig
// builds it: on the legacy path, which invokes nothing, the rig's own
// (fixtureRun.registry); on the orchestrator path the fixture's
// host_handlers alone, when they serve every call the story makes
// (ix.invoked, bound) with an answer of their own (no delay,
// clarification or bad delay) and the fixture has no host_bindings or
// cassette. ok is false elsewhere: a call would reach a real handler.
func (l *fixtureLint) replayHosts() (*host.Registry, bool) {
	fx := l.fx
	if !fx.Orchestrated() {
		return (&fixtureRun{fx: fx, legacy: true}).registry(fx), true
	}
	if len(fx.HostBindings) > 0 || slices.ContainsFunc(fx.cassettes(), func(n namedFile) bool { return n.path != "" }) {
		return nil, false
	}
	reg := host.NewRegistry()
	for _, st := range fx.HostHandlers {
		if st.DelayErr != "" || st.RequestClarification != "" {
			return nil, false
		}
		reg.Register(st.Name, st.Handler())
	}
	delayed := map[string]bool{}
	for _, st := range fx.HostHandlers {
		delayed[st.Name] = st.Delay > 0
	}
	for h := range l.ix.invoked {
		_, served, _, ok := reg.Lookup(h)
		if !ok || strings.HasPrefix(h, "host.agent.") && served != h {
			return nil, false // an agent verb a stub serves by prefix goes to the agent layer
		}
		// a delayed foreground call may fail; a job answered at once is
		// followed as the rig lands it (the run ends where it would race
		// the next turn: replayRaces)
		if delayed[served] && l.ix.foreground[h] {
			return nil, false
		}
	}
	return reg, true
}

// replayArm is an arm whose target and events are literal and whose
// effects are replayEffects: a {{ }} template there is rendered by
// pongo2 upstream, which kitsoki's renderer matches only as far as
// lint_step_template.go's renderedLeaf judges, so it is not followed.
func replayArm(a *story.Transition) bool {
	return !story.IsTemplated(a.Target) && !slices.ContainsFunc(a.Emit(), story.IsTemplated) && allEffects(a.Effects, replayEffect)
}

// replayEffect is an effect that moves nothing by itself: a set,
// increment, say, emit: or emit_intent, the events named literally (an
// emit_intent may also choose between two names, choiceIntent), or a
// call that is not once: and whose on_error is literal (replayHosts
// judges who answers it).
func replayEffect(e *story.Effect) bool {
	return !story.IsTemplated(e.Emit()) && (!story.IsTemplated(e.EmitIntent()) || choiceIntent.MatchString(e.EmitIntent())) && !story.IsTemplated(e.OnError()) && !e.Once() && e.Agent() == "" && e.Target() == "" && len(e.Effects()) == 0 && e.Selection() == nil &&
		(len(e.OnComplete()) == 0 || e.Background())
}

// completeEffects reports whether a background job's on_complete is one
// the run follows: literal targets and foreground replayEffects, the
// landings' views rendered as the rig renders them (ix.views: a target
// whose view fails to render still lands, conformance
// job-complete-target-view-fails; an on_error landing whose view fails
// drops the chain, landing-self-view-fails job2).
func completeEffects(effs []*story.Effect) bool {
	return allEffects(effs, func(e *story.Effect) bool {
		if e.Target() != "" {
			return !story.IsTemplated(e.Target()) && e.Invoke == "" && e.EmitIntent() == "" && len(e.Effects()) == 0 && len(e.OnComplete()) == 0 && !e.Background()
		}
		return replayEffect(e) && !e.Background()
	})
}

// choiceIntent is a templated emit_intent that names one of two literal
// intents (or none) by a condition, {{ world.r == 'R' ? 'go' : 'back' }}:
// both engines render an emit_intent with expr (story-runtime §1.7), and
// a choice between two quoted names renders as one of them, whatever
// value the condition reads, so the run's machine hops as upstream's
// does (conformance expect-hop-accepted). The condition holds no
// template, choice or pipe of its own.
var choiceIntent = &lazyre.Regexp{Expr: `^\{\{\s*(?:[^{}?:'"|]|'[^'{}?:|]*')+\?\s*'[A-Za-z0-9_.-]*'\s*:\s*'[A-Za-z0-9_.-]*'\s*\}\}$`}
