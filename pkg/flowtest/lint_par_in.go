package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// A fixture that certainly enters a parallel state P rests somewhere
// inside it (rest.in), its leaves not followed, as long as nothing in P
// can take it out but P's own arms (parConfined; while its leaves are
// known, parOpen is enough: lint_par_open.go). There, both engines
// refuse an intent that no state inside P takes, nor P or an ancestor
// (conformance lint-par-in: after enter, a second enter is refused
// INTENT_NOT_ALLOWED_IN_STATE; after a round of region moves, P's own
// leave lands on outside, where tick is refused). A turn that only
// regions take keeps it inside P; P's own unguarded arm re-enters P
// (target ".") or leaves it for a plain leaf.

// parIn warns at a turn fired inside the parallel state r.in that no
// state inside it takes, nor it or an ancestor, nor "*": it reports
// whether it warned.
func (l *fixtureLint) parIn(t *Turn, r rest) bool {
	ix, p, name := l.ix, r.in, l.parAbove(t, r)
	if name == "" || takes(p, name) {
		return false
	}
	states := ix.under(p)
	for a := p; a != nil; a = a.Parent {
		states = append(states, a)
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is not taken in the parallel state %q, where %s: no state inside it, nor it or an ancestor, takes it (they take: %s): the turn is rejected %s on both engines, if the fixture gets this far; fire an intent one of them takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, p.Path, r.from, takenBy(states), engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
}

// parGuard warns at a turn fired inside the parallel state r.in whose
// intent no state inside it takes, so that it or an ancestor does, when
// every arm it reaches has a when: false on the world the fixture
// certainly has (conformance lint-par-guard: leave's guard on
// entered_clock, which expect_world asserts true after enter, is false
// after a round of region moves that never write it): both engines
// reject it GUARD_FAILED. A turn that leaves out a slot the intent
// requires is refused (legacy) or clarified (orchestrator) before any
// guard is evaluated, as at a plain state (gen write -kind storymut -seed
// 1002391: out given a required slot, d_own_arm_writes passes upstream).
// It reports whether it warned.
func (l *fixtureLint) parGuard(t *Turn, r rest) bool {
	name := l.parAbove(t, r)
	return name != "" && !l.leavesRequired(t, l.ix.decls[name]) && l.noArmHolds(t, r.in, name, r.from)
}

// parAbove is the intent of a turn fired inside the parallel state r.in
// (no expected rejection) that no state inside it takes, when it is a
// declared intent with no alias; else "".
func (l *fixtureLint) parAbove(t *Turn, r rest) string {
	ix, p := l.ix, r.in
	if p == nil || t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded || ix.wildcard {
		return ""
	}
	name := t.Intent.Name
	if !ix.intents[name] || len(ix.aliases[name]) > 0 || ix.inside(p, func(s *story.State) bool { return s.HasOn(name) }) {
		return ""
	}
	return name
}

// parAfter is where t leaves the fixture when it enters, stays in or
// leaves a parallel state certainly (see parNext), with a warning at an
// expect_state that names another place; res, after's answer, when
// parNext knows nothing; held, the world before t when r is inside a
// parallel state (parWorld). It is asked only when after warned nothing.
func (l *fixtureLint) parAfter(t *Turn, r rest, arc string, res rest, held *knownWorld) rest {
	if l.parClarifyWrong(t, arc) {
		return rest{}
	}
	next := l.parNextHeld(t, r, arc, held)
	if next.in == nil && next.at == nil {
		return res
	}
	l.parWorld(r, next, arc, held)
	if t.ExpectState == nil || !l.ix.hasState(*t.ExpectState) {
		return next
	}
	want := *t.ExpectState
	if next.at != nil && want != next.at.Path {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but %s, where %s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, want, next.from, r.from, next.at.Path)
		return rest{}
	}
	if next.in != nil && want != next.in.Path && !strings.HasPrefix(want, next.in.Path+".") && !strings.HasPrefix(want, next.in.Path+"#") {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but %s, and the machine rests inside it: the assertion fails on both engines; expect the path of a state inside %q, or fix the turns before it",
			t.Index, want, next.from, next.in.Path)
		return rest{}
	}
	if next.in != nil && l.parExpectLeaves(t, &next) {
		return rest{}
	}
	return next
}

// parWorld is what a turn from r to next, at least one of them inside a
// parallel state, leaves of the known world: a turn that stays inside
// the parallel state keeps held, the world before it: after its own arm
// re-entering it (next.stay) plus that arm's effects, after any other
// forgetting only what the effects there may write (every state's
// inside it; its own on_enter and arms too when a region does not take
// arc), since regions' emits and effects are not followed; any other
// turn loses the world.
func (l *fixtureLint) parWorld(r, next rest, arc string, held *knownWorld) {
	p := r.in
	if p == nil && next.entry != nil && held != nil {
		l.world = held
		l.parEnterWorld(r, next)
		return
	}
	if p == nil || next.in != p || held == nil {
		l.world.loseAll()
		return
	}
	l.world = held
	w, states := held, l.ix.under(p)
	if next.stay != nil {
		var calls []*story.Effect // (none: parMove takes only an arm whose effects are quiet)
		w.apply(next.stay.Effects, l.fx.Orchestrated(), &calls)
		return
	}
	if !slices.ContainsFunc(states, func(s *story.State) bool { return s.HasOn(arc) }) {
		states = append(states, p) // its own arm: a re-entry runs its on_enter
	}
	orch := l.fx.Orchestrated()
	for _, s := range states {
		w.forget(s.OnEnter, orch)
		w.forget(s.OnExit(), orch)
		for _, name := range s.OnNames() {
			for _, a := range s.Arms(name) {
				if a != nil {
					w.forget(a.Effects, orch)
				}
			}
		}
	}
}

// parClarifyWrong warns at an expect_state of a clarification (a
// required slot left out, on the orchestrator path) fired where the
// previous turn's expect_state rests the fixture in a parallel
// configuration (l.par): the machine stays there, so another path fails
// on both engines (conformance lint-par-clarify: tick needing v, sent
// without it or with null, stays at clock#clock.calendar.day1|…, not
// day2). It reports whether it warned.
func (l *fixtureLint) parClarifyWrong(t *Turn, arc string) bool {
	ix, prev := l.ix, l.par
	if prev == "" || arc == "" || t.ExpectState == nil || t.HasAdvance || ix.unfolded || (ix.jobs && l.fx.Orchestrated()) ||
		!l.clarifies(t, ix.decls[arc]) || !ix.hasState(prev) {
		return false
	}
	want := *t.ExpectState
	if want == prev || !ix.hasState(want) {
		return false
	}
	slot := leftOut(t, ix.decls[arc][0])
	l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q leaves out its required slot %q: on this orchestrator-path fixture the turn is a clarification, and the machine stays at %q (turns[%d].expect_state); the assertion fails on both engines; send the slot (slots: {%s: ...}), or expect_state: %s",
		t.Index, want, t.Intent.Name, slot, prev, t.Index-1, slot, prev)
	return true
}

// parNextHeld is parNext judging guards on held, the world before t, when
// it was fired inside a parallel state (after has moved l.world on).
func (l *fixtureLint) parNextHeld(t *Turn, r rest, arc string, held *knownWorld) rest {
	if held == nil {
		return l.parNext(t, r, arc)
	}
	cur := l.world
	l.world = held.clone()
	defer func() { l.world = cur }()
	return l.parNext(t, r, arc)
}

// parNext is where t certainly leaves the fixture: inside a parallel
// state it enters from a plain leaf by an unguarded (or certainly
// chosen) arm, or stays in, or at the plain leaf its parallel state's
// own arm leaves for; the zero rest when that is not certain.
func (l *fixtureLint) parNext(t *Turn, r rest, arc string) rest {
	ix := l.ix
	if t.ExpectError != nil || ix.unfolded || ix.wildcard || (ix.jobs && l.fx.Orchestrated()) {
		return rest{}
	}
	if t.Intent == nil { // a clock-only turn stays where no timeout may fire
		if r.in != nil && t.HasAdvance && !t.HasInput && !ix.timedIn(r.in) {
			return r
		}
		return rest{}
	}
	if arc == "" || l.leavesRequired(t, ix.decls[arc]) {
		return rest{}
	}
	if r.at != nil && len(r.alt) == 0 && !inParallel(r.at) {
		return ix.heldOpen(l.parEnter(t, r, arc))
	}
	if r.in == nil || (t.HasAdvance && ix.timedIn(r.in)) {
		return rest{}
	}
	return ix.heldOpen(l.parMove(t, r, arc))
}

// parEnter is parNext from the plain leaf r.at: inside the parallel
// state its certainly chosen arm enters.
func (l *fixtureLint) parEnter(t *Turn, r rest, arc string) rest {
	ix := l.ix
	n, a := chosenArm(r.at, arc, l.guardOf(t))
	p := ix.parTarget(n, a)
	if p == nil || (t.HasAdvance && ix.timedIn(p)) || !quietEntry(r.at, plainEffect) || !ix.parOpen(p) || !quietAbove(p) {
		return rest{}
	}
	next := rest{in: p, from: fmt.Sprintf("turns[%d] %q, fired at %q (where %s), enters %q", t.Index, t.Intent.Name, r.at.Path, r.from, p.Path)}
	if leaves, _, ok := ix.parLanding(p); ok {
		next.leaves, next.entry = leaves, a
	}
	return next
}

// parMove is parNext from inside the parallel state r.in: from a
// configuration it knows, where a region's certain move leaves it
// (parRegionMove), else somewhere inside it or where its own arm leads.
func (l *fixtureLint) parMove(t *Turn, r rest, arc string) rest {
	ix, p := l.ix, r.in
	if len(r.leaves) > 0 {
		if next := l.parRegionMove(t, r, arc); next.in != nil {
			return next
		}
	}
	if ix.inside(p, func(s *story.State) bool { return s.HasOn(arc) }) {
		if takes(p, arc) {
			return rest{} // a region's arm or the parallel state's: not judged
		}
		return rest{in: p, from: fmt.Sprintf("turns[%d] %q is taken only inside %q, which keeps it there", t.Index, t.Intent.Name, p.Path)}
	}
	n, a := chosenArm(p, arc, l.guardOf(t))
	if a == nil || n != p || !allEffects(a.Effects, parQuiet) {
		return rest{}
	}
	if tt := strings.TrimSpace(a.Target); tt == "" || tt == "." || ix.parTarget(n, a) == p {
		next := rest{in: p, from: fmt.Sprintf("turns[%d] %q re-enters %q (its own arm, target %q)", t.Index, t.Intent.Name, p.Path, tt)}
		if len(a.Emit()) > 0 {
			return next
		}
		// the re-entry runs the arm's effects only, no on_enter, and
		// lands each region on its initial leaf (conformance
		// lint-par-guard d, k; lint-par-stay)
		next.stay = a
		if leaves, _, ok := ix.parLanding(p); ok {
			next.leaves = leaves
		}
		return next
	}
	return l.parLeave(t, p, n, a)
}

// parLeave is where the arm a of n (p or an ancestor), taken by t in
// the parallel state p, leaves the machine: the plain leaf its literal
// target lands on; the zero rest when that is not certain.
func (l *fixtureLint) parLeave(t *Turn, p, n *story.State, a *story.Transition) rest {
	ix := l.ix
	d := ix.literalTarget(n, a)
	if d == nil || t.HasAdvance || inParallel(d) {
		return rest{} // a timeout may fire there; a move into a parallel state is not followed
	}
	to := ix.landing(d, parQuiet)
	if len(to) != 1 {
		return rest{}
	}
	return rest{at: to[0], from: fmt.Sprintf("turns[%d] %q leaves the parallel state %q (its own arm moves it to %q)", t.Index, t.Intent.Name, p.Path, to[0].Path)}
}

// parStartLeave is where the fixture's first intent t, fired at jr, the
// parallel state its initial_state names by its plain path (parStart:
// the rig fires it at that path and its ancestors only), leaves the
// machine when the arm it certainly takes there, quiet, leaves for a
// plain leaf (conformance lint-par-in s: started at clock, leave lands
// outside, where tick is refused); the zero rest otherwise.
func (l *fixtureLint) parStartLeave(t *Turn, jr rest, arc string) rest {
	ix, p := l.ix, jr.at
	if p == nil || !p.Parallel || p != l.parStart() || t.ExpectError != nil || t.Intent == nil ||
		arc == "" || ix.unfolded || ix.wildcard || (ix.jobs && l.fx.Orchestrated()) || l.leavesRequired(t, ix.decls[arc]) {
		return rest{}
	}
	n, a := chosenArm(p, arc, l.guardOf(t))
	if a == nil || len(a.Emit()) > 0 || !allEffects(a.Effects, parQuiet) {
		return rest{}
	}
	if tt := strings.TrimSpace(a.Target); n == p && (tt == "." || ix.literalTarget(n, a) == p) {
		return l.bareExpect(t, l.bareEnter(t, p, a, jr))
	}
	if t.ExpectState != nil {
		return rest{}
	}
	for s := p; s != nil; s = s.Parent {
		if !allEffects(s.OnExit(), parQuiet) {
			return rest{} // an exit that calls may be redirected
		}
	}
	next := l.parLeave(t, p, n, a)
	if next.at != nil {
		next.from = fmt.Sprintf("turns[%d] %q, fired at %q (where %s), takes the arm of %q that moves it to %q", t.Index, t.Intent.Name, p.Path, jr.from, n.Path, next.at.Path)
	}
	return next
}

// timedIn reports whether a timeout may fire while the machine rests
// inside p: a timeout: on p, a state inside it or an ancestor.
func (ix *storyIndex) timedIn(p *story.State) bool {
	for a := p; a != nil; a = a.Parent {
		if a.Timeout() != nil {
			return true
		}
	}
	return ix.inside(p, func(s *story.State) bool { return s.Timeout() != nil })
}

// parStartIn is the parallel state an initial_state spelled root#leaf|leaf
// starts the fixture inside (conformance lint-par-in: enter, at
// clock#clock.calendar.day1|clock.weather.dry, is refused on both paths),
// when nothing there but its own arms can move it out; else nil.
func (ix *storyIndex) parStartIn(initial string) *story.State {
	root, _, ok := strings.Cut(initial, "#")
	if !ok || ix.unfolded {
		return nil
	}
	if p := ix.byPath[root]; p != nil && p.Parallel && ix.parConfined(p) && (ix.hasState(initial) || ix.startsBeside(p, initial)) {
		return p
	}
	return nil
}

// literalTarget is the state a's literal target names, resolved from n;
// nil for a templated or exit target, or an unknown one.
func (ix *storyIndex) literalTarget(n *story.State, a *story.Transition) *story.State {
	tt := strings.TrimSpace(a.Target)
	if n == nil || tt == "" || tt == "." || story.IsTemplated(tt) || strings.HasPrefix(tt, "@exit:") {
		return nil
	}
	p, err := story.ResolvePath(n.Path, tt)
	if err != nil {
		return nil
	}
	return ix.byPath[p]
}

// parTarget is the parallel state a (at n) moves the machine into: the
// outermost parallel state at or above its literal target, when its
// effects only set, increment or say; else nil.
func (ix *storyIndex) parTarget(n *story.State, a *story.Transition) *story.State {
	if a == nil || !allEffects(a.Effects, parQuiet) {
		return nil
	}
	var p *story.State
	for s := ix.literalTarget(n, a); s != nil; s = s.Parent {
		if s.Parallel {
			p = s
		}
	}
	if p == nil || ix.literalTarget(n, a) != p {
		return nil // a move to a state inside a parallel state: not followed
	}
	return p
}

// quietAbove reports whether the ancestors of p, entered on the way in,
// only set, increment, say or emit an event (delivered nowhere) on entry.
func quietAbove(p *story.State) bool {
	for a := p.Parent; a != nil; a = a.Parent {
		if !allEffects(a.OnEnter, plainEffect) {
			return false
		}
	}
	return true
}

// parConfined reports whether nothing inside the parallel state p can
// move the machine out of it but p's own arms: every state inside it
// (and p) only sets, increments, says or emits an event on entry; every
// arm of a state inside it has a literal target inside p (or none) and
// such effects; and no event emitted there (an arm's emit: list or an
// effect's emit:) is taken by p or an ancestor. (A timeout there is timedIn's.)
func (ix *storyIndex) parConfined(p *story.State) bool {
	var emits []string
	effOK := func(effs []*story.Effect) bool {
		for _, e := range effs {
			if e == nil {
				continue
			}
			if !plainEffect(e) {
				return false
			}
			if ev := e.Emit(); ev != "" {
				emits = append(emits, ev)
			}
		}
		return true
	}
	if !effOK(p.OnEnter) {
		return false
	}
	for _, s := range ix.under(p) {
		if !effOK(s.OnEnter) {
			return false
		}
		for _, name := range s.OnNames() {
			for _, a := range s.Arms(name) {
				if a == nil || !effOK(a.Effects) {
					return false
				}
				emits = append(emits, a.Emit()...) // between regions, as an effect's emit:
				if tt := strings.TrimSpace(a.Target); tt == "" || tt == "." {
					continue
				}
				d := ix.literalTarget(s, a)
				if d == nil || !strings.HasPrefix(d.Path+".", p.Path+".") {
					return false
				}
			}
		}
	}
	return !slices.ContainsFunc(emits, func(ev string) bool { return takes(p, ev) })
}

// under lists the states strictly inside p.
func (ix *storyIndex) under(p *story.State) []*story.State {
	var out []*story.State
	var walk func(s *story.State)
	walk = func(s *story.State) {
		for _, c := range s.Children {
			out = append(out, c)
			walk(c)
		}
	}
	walk(p)
	return out
}

// inside reports whether some state strictly inside p satisfies f.
func (ix *storyIndex) inside(p *story.State, f func(*story.State) bool) bool {
	return slices.ContainsFunc(ix.under(p), f)
}
