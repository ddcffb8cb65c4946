package flowtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// rest is where a fixture certainly rests between turns: at is the state
// (nil: unknown), from says why, for messages; alt lists the states a
// failing call's on_error may have moved it to instead (lint_redirect.go).
type rest struct {
	at   *story.State
	alt  []*story.State
	from string
	why  string // why it may rest in alt instead, for messages ("": a failing call's on_error)
	// armed: the turn that left it there certainly ended normally, so its
	// own timeout: is armed with a fresh deadline (clockFires)
	armed bool
	// since: how far clock-only turns moved the clock after that turn
	// (they arm nothing: clockWaits)
	since time.Duration
	// exit: the fixture left the root story through @exit:exit and rests
	// at __exit__<exit> (at nil; lint_exit_rest.go), or through one of
	// exitAlt instead
	exit    string
	exitAlt []string
	// in: the fixture rests somewhere inside this parallel state (at nil;
	// lint_par_in.go); leaves: at this configuration of it when known,
	// sorted by path (lint_par_leaves.go)
	in     *story.State
	leaves []*story.State
	// spelling: the path the engines print at leaves while no intent has
	// been taken since the fixture started at it or an expect_state named
	// it (a root#leaf|leaf spelling, sorted or not); "": parPath's
	spelling string
	// entry: the arm that entered in from a plain leaf, landing quietly on
	// leaves (parEnter), whose world parEnterWorld follows; stay: in's own
	// arm re-entering it that the turn certainly took (parMove), whose
	// effects parWorld applies
	entry, stay *story.Transition
}

// maxFrom bounds a rest's from: each turn's reason quotes the one
// before it, so a long fixture's would grow with the square of its turns
// (its start and end, the latest turn, are kept: diag.Clip); a message
// quoting it is cut to diag.MaxMessage anyway.
const maxFrom = diag.MaxMessage / 2

// altWhy says, for a message, why the fixture may rest in r.alt.
func (r rest) altWhy() string {
	return cmp.Or(r.why, "where a failing call's on_error may move it")
}

// altTaken names, for a message, the states of r.alt and what each takes.
func (r rest) altTaken() string {
	var b strings.Builder
	for _, s := range r.alt {
		fmt.Fprintf(&b, ", nor at %q, %s instead (taking: %s)", s.Path, r.altWhy(), takenList(s))
	}
	return b.String()
}

// startRest is where the fixture's first turn fires: its initial_state
// leaf. The rig never runs the initial state's on_enter (probed on the
// orchestrator path: an on_enter that sets a flag and calls a failing
// host with an on_error leaves the flag unset and the fixture where it
// started), but on the orchestrator path the post-bind pass walks the
// state's own on_enter emit_intent entries after a turn that stays
// (story-runtime §1.9), which the lint does not follow from the start.
func (l *fixtureLint) startRest() rest {
	if p := l.ix.parStartIn(l.fx.InitialState); p != nil {
		ls, _ := l.ix.startLeaves(p, l.fx.InitialState)
		r := rest{in: p, leaves: ls, from: "the fixture starts (initial_state)"}
		if r.leaves != nil && (oneRegionEach(p, r.leaves) || l.fx.Orchestrated() || slices.IsSorted(leaves(l.fx.InitialState))) {
			// printed until an intent is taken (conformance lint-par-leaves
			// u, v); two leaves of a region, sorted on the legacy path
			// (par-start-two-leaves)
			r.spelling = l.fx.InitialState
		}
		return r
	}
	if l.fx.InitialState == "" {
		return l.rootRest()
	}
	s := l.ix.plainLeaf(l.fx.InitialState)
	if s == nil || (l.fx.Orchestrated() && slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" })) {
		return rest{}
	}
	return rest{at: s, from: "the fixture starts (initial_state)", armed: true}
}

// rootRest is where an orchestrated fixture with no initial_state fires
// its first turn: the root's initial leaf, each compound's initial:
// followed, no on_enter run on the way and no timeout armed, as the
// existing engine starts it (probed: a root whose on_enter sets msg, and
// a first leaf's arm guarded on msg, is refused GUARD_FAILED at turn 0). Unknown on the legacy path (the state "", which
// turns() reports), through a parallel state or a templated initial:, and
// at a leaf whose on_enter emits (the post-bind pass, as startRest).
func (l *fixtureLint) rootRest() rest {
	if !l.fx.Orchestrated() {
		return rest{}
	}
	s := l.ix.byPath[l.root.Root]
	for depth := 0; s != nil && len(s.Children) > 0 && !s.Parallel; depth++ {
		init := s.Initial()
		if init == "" || story.IsTemplated(init) || depth > 64 {
			return rest{}
		}
		s = l.ix.byPath[s.Path+"."+init]
	}
	if s == nil || l.ix.plainLeaf(s.Path) == nil || slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" }) {
		return rest{}
	}
	return rest{at: s, from: "the fixture starts (no initial_state: the root's initial leaf, entered with no on_enter run)"}
}

// restAt is the state t certainly fires at, or nil: not, past the first
// turn (no job runs before it: the rig never runs the initial on_enter),
// in a story whose
// background job's on_complete may move the machine between turns on the
// orchestrator path (the legacy path runs no job).
func (l *fixtureLint) restAt() rest {
	if l.jobMayLand() || (l.rest.at == nil && l.rest.exit == "" && l.rest.in == nil) {
		return rest{}
	}
	return l.rest
}

// after is where the fixture rests after t, fired at at with its intent
// reaching the on: name arc: the state its expect_state names, else the
// one the unguarded first arm of the intent certainly moves it to (a
// legacy expect_error turn's result is discarded: it stays), else unknown.
//
// jr is where t was judged: r, or on a first turn whose start r leaves
// unknown, the initial_state (firstRest), which only a turn followed
// through its post-bind pass (settled) goes on from.
func (l *fixtureLint) after(t *Turn, r, jr rest, arc string, warned bool) rest {
	ix, at := l.ix, r.at
	if warned || t.ExpectError != nil {
		return l.afterFailed(t, r, warned)
	}
	if l.clockIdle(t, r) {
		l.stepped, l.walked, l.advanced = true, true, true // nothing moves: no job starts or lands
		return l.clockStays(t, r)
	}
	defer func() {
		if t.HasAdvance && !l.advanced {
			l.world.loseAll() // a job may land, a timeout fire
		}
	}()
	if cr := l.clarifyRest(t, r); cr.at != nil && len(cr.alt) == 0 && t.Intent != nil && arc != "" && l.clarifies(t, ix.decls[arc]) {
		if !l.clockStillStaying(t, cr.at) {
			return rest{}
		}
		return l.stays(t, cr, arc)
	}
	wr, followed, to, arm := l.followed(t, r, jr, arc)
	if followed {
		return wr
	}
	l.stepped = to != nil
	l.moveWorld(t, r, arc, to, arm)
	if fr, ok := l.clockFires(t, r); ok {
		return fr
	}
	if t.Intent == nil && at != nil && t.HasAdvance && l.clockStill(t, append([]*story.State{at}, r.alt...)...) {
		return l.clockStays(t, r)
	}
	var may []string
	if to == nil && l.intentJudged(t, at, arc) {
		may = l.mayRest(t, r, arc)
		if may != nil && t.ExpectState != nil && l.mayWrongState(t, r, may) {
			return rest{}
		}
	}
	if to == nil { // (a certain move to a state: expectedRest warns)
		if er, ok := l.exitAfter(t, r, arc); ok {
			return er
		}
	}
	if t.ExpectState != nil {
		return l.expectedRest(t, r, arc, arm, to)
	}
	if to != nil {
		return rest{at: to[0], alt: to[1:], from: fmt.Sprintf("turns[%d] %q leads (%s moves %q to %q)", t.Index, t.Intent.Name, armLed(at, arc, arm), at.Path, to[0].Path), armed: plainMove(at, arm, to) && restArms(to[0]) && !ix.isUnknown(to[0])}
	}
	return l.mayRestAt(t, may)
}

// followed is where t leads when the settle walk follows it (a
// clock-only turn landing jobs: clockTurn), else the states the certain
// step moves it to and the arm it takes (nil: not certain; more than
// one: a call's on_error may redirect it). In a story
// that starts jobs the walk goes first: it follows them, step does not;
// so it does where a handler may refuse a slot the turn sends
// (lint_slot_uint.go), which step does not see.
func (l *fixtureLint) followed(t *Turn, r, jr rest, arc string) (rest, bool, []*story.State, *story.Transition) {
	if cr, ok := l.clockTurn(t, r); ok {
		return cr, true, nil, nil
	}
	first := l.ix.background && !l.jobsLost || l.slotsMayBeRefused(t)
	if first {
		if sr, ok := l.settled(t, jr, arc); ok {
			return sr, true, nil, nil
		}
	}
	to, arm := l.certainStep(t, r, arc)
	// a step that may rest in more than one state (a call's on_error)
	// is settled by the walk where it can answer the calls
	if (to == nil || len(to) > 1) && !first {
		if sr, ok := l.settled(t, jr, arc); ok {
			return sr, true, nil, nil
		}
	}
	return rest{}, false, to, arm
}

// certainStep is where t, fired at r with its intent reaching arc,
// certainly moves the machine by stepAll, and the arm it takes; nil
// when that is not certain, or an advance_clock may move it on.
func (l *fixtureLint) certainStep(t *Turn, r rest, arc string) ([]*story.State, *story.Transition) {
	if arc == "" || !l.intentJudged(t, r.at, arc) {
		return nil, nil // a clarification (a required slot left out) may stay
	}
	to, arm := l.ix.stepAll(r, t.Intent.Name, arc, l.stillEffect(), l.guardOf(t), l.targetRender(t))
	if to != nil && !l.clockStill(t, to...) {
		return nil, nil
	}
	return to, arm
}

// exitAfter is after for a turn that moves to no state certainly: the
// exit the arm it certainly takes leaves through (when no expect_state
// follows it: expectedRest judges that), else the exit its expect_state
// names.
func (l *fixtureLint) exitAfter(t *Turn, r rest, arc string) (rest, bool) {
	if arc != "" {
		if er, ok := l.exitStep(t, r, arc); ok {
			l.stepped = true
			if t.ExpectState == nil {
				return er, true
			}
		}
	}
	return l.exitRest(t)
}

// intentJudged reports whether where t's intent leads from at is judged:
// the fixture rests somewhere known and, orchestrated, sends every
// required slot (a clarification stays).
func (l *fixtureLint) intentJudged(t *Turn, at *story.State, arc string) bool {
	return at != nil && t.Intent != nil && !(l.fx.Orchestrated() && l.leavesRequired(t, l.ix.decls[arc]))
}

// afterFailed is after for a turn whose result is discarded: one the
// lint already warned at (the fixture fails there) rests nowhere known; a
// legacy expect_error turn stays where it was. A turn certainly rejected
// as it expects (expectedRejection) keeps the known world too: it runs
// no effect (conformance lint-par-guard l: leave's guard on the
// entered_clock asserted before it is judged after it).
func (l *fixtureLint) afterFailed(t *Turn, r rest, warned bool) rest {
	if !warned && l.expectedRejection(t, r) {
		r.from += fmt.Sprintf(", and turns[%d] %q is rejected there as it expects, moving nothing", t.Index, t.Intent.Name)
		return r
	}
	l.world.loseAll()
	if !warned && !l.fx.Orchestrated() && r.at != nil {
		return r
	}
	return rest{}
}

// expectedRejection reports whether t expects INTENT_NOT_ALLOWED_IN_STATE
// for an intent nothing where r certainly rests takes (no leaf of its
// parallel configuration or a state above one, or its state and
// ancestors; or an intent declared nowhere), or GUARD_FAILED for one
// whose every arm at the plain state r rests in is certainly false
// (every required slot sent), in a story where nothing else may move
// the machine meanwhile: the rejection moves nothing, and a
// configuration keeps its spelling (conformance lint-par-spelling e, f;
// lint-rejected-rest d).
func (l *fixtureLint) expectedRejection(t *Turn, r rest) bool {
	ix := l.ix
	if t.ExpectError == nil || t.Intent == nil || t.HasAdvance || ix.unfolded || l.jobMayLand() || r.exit != "" {
		return false
	}
	name := t.Intent.Name
	if t.ExpectError.Code == engine.CodeGuardFailed {
		return name != "" && len(ix.aliases[name]) == 0 && r.at != nil && len(r.alt) == 0 && !inParallel(r.at) &&
			ix.intents[name] && !l.leavesRequired(t, ix.decls[name]) && l.guardsFalse(t, r.at, name)
	}
	switch {
	case t.ExpectError.Code != engine.CodeNotAllowed || name == "" || len(ix.aliases[name]) > 0 || ix.wildcard:
		return false
	case !ix.intents[name] && !ix.taken[name]:
		return r.at != nil || r.in != nil
	case r.in != nil && len(r.leaves) > 0:
		return !ix.leavesTake(r.leaves, name)
	case r.at != nil && len(r.alt) == 0:
		return !takes(r.at, name)
	}
	return false
}

// expectedRest is after for a turn with an expect_state: a warning when
// the turn certainly moves the machine (to) elsewhere, else the state it
// names when that is a plain leaf.
func (l *fixtureLint) expectedRest(t *Turn, r rest, arc string, arm *story.Transition, to []*story.State) rest {
	ix, at, want := l.ix, r.at, *t.ExpectState
	if to != nil && !slices.ContainsFunc(to, func(s *story.State) bool { return s.Path == want }) && ix.hasState(want) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q, fired at %q (where %s%s), takes %s that moves it to %q%s%s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, want, t.Intent.Name, at.Path, r.from, orAt(r.alt, "or at %s, "+r.altWhy()), armTook(at, arc, arm), to[0].Path, orAt(to[1:], "or, when a call's on_error redirects it, to %s"), clockNote(t), to[0].Path)
		return rest{}
	}
	if s := ix.plainLeaf(want); s != nil {
		return rest{at: s, from: fmt.Sprintf("turns[%d].expect_state rests", t.Index)}
	}
	return rest{}
}

// guardsFalse reports whether every arm t's intent reaches at at has a
// when: certainly false (armsFalse).
func (l *fixtureLint) guardsFalse(t *Turn, at *story.State, arc string) bool {
	_, _, ok := l.armsFalse(t, at, arc)
	return ok
}
