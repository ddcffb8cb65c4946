package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// A fixture resting inside a parallel state P (rest.in) may also rest at
// a configuration the lint knows for certain (rest.leaves): the regions'
// initial: leaves after a quiet entry from outside (parEnter), the
// leaves an expect_state or a sorted root#leaf|leaf initial_state names,
// and, from a known configuration, the one a region's certain move
// leaves (parRegionMove: the first leaf, by path, whose own or region
// ancestor's arm is certainly taken, moving within its region). There an
// intent no leaf takes, nor a state above one, is refused
// INTENT_NOT_ALLOWED_IN_STATE on both engines (conformance lint-par-leaves:
// tick twice after enter, the second at day2), and an expect_state that
// names another path fails.

// parLeavesNotTaken warns at a turn fired at the configuration r.leaves
// of the parallel state r.in that no leaf of it takes, nor a region or
// ancestor above one, nor "*" (parallelNotTaken's judgement where no
// expect_state of the turn before names the configuration). It reports
// whether it warned.
func (l *fixtureLint) parLeavesNotTaken(t *Turn, r rest) bool {
	if r.in == nil || len(r.leaves) == 0 {
		return false
	}
	name := l.parIntent(t)
	if name == "" || l.ix.leavesTake(r.leaves, name) {
		return false
	}
	at := r.printed()
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is not taken at %q, the configuration of the parallel state %q the fixture certainly rests in, where %s: no leaf of it, nor a region or ancestor above one, takes it (they take: %s): the turn is rejected %s on both engines, if the fixture gets this far; fire an intent one of them takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, at, r.in.Path, r.from, leavesTaken(r.leaves), engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
}

// parLeavesGuard warns at a turn fired at the configuration r.leaves of
// the parallel state r.in whose intent a leaf or a region above one
// takes, when every arm each leaf reaches in turn (the engines try the
// leaves by path, each at the nearest state with arms for it) has a
// when: false on the world the fixture certainly has: both engines
// reject it GUARD_FAILED (conformance lint-par-leaves: chill, day1's
// world.cold arm false, after dry's took it once). Arms found first at
// r.in or above are parGuard's. A turn that leaves out a slot the intent
// requires is refused (legacy) or clarified (orchestrator) before any
// guard, as parGuard's (gen write -kind storymut -seed 1005500, story
// 007). It reports whether it warned.
func (l *fixtureLint) parLeavesGuard(t *Turn, r rest) bool {
	if r.in == nil || len(r.leaves) == 0 {
		return false
	}
	name := l.parIntent(t)
	if name == "" || l.leavesRequired(t, l.ix.decls[name]) {
		return false // refused or clarified before any guard (conformance lint-par-clarify-guard)
	}
	fired, ok := l.firedLeaves(r)
	if !ok {
		return false
	}
	guard := l.guardOf(t)
	var first *story.State
	var when string
	for _, leaf := range fired {
		n, arms := armsOf(leaf, name)
		if n == nil {
			continue
		}
		if !within(n, r.in) {
			return false
		}
		if a, known := certainArm(arms, guard); !known || a != nil {
			return false
		}
		if first == nil {
			first, when = n, arms[0].When
		}
	}
	if first == nil {
		return l.parFiredNone(t, r, name, fired)
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q, fired at %q, the configuration of the parallel state %q the fixture certainly rests in (where %s), reaches the arms of %q and of every leaf after it that takes it, and every one's when: is false on the world the fixture certainly has then (first: %s): the turn is rejected %s on both engines, if the fixture gets this far; set the world the guards need (initial_world, world_override, the slots sent), fix the guards, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, r.printed(), r.in.Path, r.from, first.Path, when, engine.CodeGuardFailed, engine.CodeGuardFailed)
	return true
}

// parIntent is the intent of a turn judged at a parallel configuration:
// a declared one without an import alias, the turn expecting no
// rejection, in a story the judgement holds for (folded, no "*", no
// moving background job out); else "".
func (l *fixtureLint) parIntent(t *Turn) string {
	ix := l.ix
	if t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded || l.jobMayLand() || ix.wildcard {
		return ""
	}
	if name := t.Intent.Name; ix.intents[name] && len(ix.aliases[name]) == 0 {
		return name
	}
	return ""
}

// leavesTake reports whether a leaf of ls or a state above one takes
// name, itself or through an import alias (the engines' allowed-set
// check over every leaf).
func (ix *storyIndex) leavesTake(ls []*story.State, name string) bool {
	return slices.ContainsFunc(ls, func(s *story.State) bool { return takes(s, name) || ix.aliasOf(s, name) != "" })
}

// leavesTaken lists what the leaves ls and the states above them take,
// for a message.
func leavesTaken(ls []*story.State) string {
	var chains []*story.State
	for _, s := range ls {
		for ; s != nil; s = s.Parent {
			chains = append(chains, s)
		}
	}
	return takenBy(chains)
}

// parRegionMove is parMove from the configuration r.leaves of the
// parallel state r.in: the leaves are tried in order (sorted by path, one
// per region), the first whose own state or an ancestor inside its region
// has arms for arc and one of them certainly chosen (every arm before it
// certainly false; all false: the next leaf is tried) takes the turn, and
// where that arm certainly moves its region is the new configuration
// (regionMoved). The zero rest where that is not certain, or the arms
// found first are r.in's own or an ancestor's (parMove judges those).
func (l *fixtureLint) parRegionMove(t *Turn, r rest, arc string) rest {
	p, guard := r.in, l.guardOf(t)
	r, ok := l.firedFrom(r)
	if !ok {
		return rest{}
	}
	for _, leaf := range r.leaves {
		n, arms := armsOf(leaf, arc)
		if n == nil {
			continue
		}
		a, known := certainArm(arms, guard)
		if !known {
			return rest{}
		}
		if a == nil {
			continue
		}
		if n == p || !within(n, p) {
			// the parallel state's arm, or an ancestor's, whose target
			// lies inside it moves the firing leaf's region as the
			// leaf's own would (conformance par-above-root-handler);
			// parMove judges the others
			if d := l.ix.literalTarget(n, a); d == nil || !within(d, p) {
				return rest{}
			}
		}
		return l.regionMoved(t, r, leaf, n, a)
	}
	return rest{} // refused: the judge's
}

// certainArm is the arm the engines take of arms: the first unguarded
// (or default: true) one or whose when: is certainly true, every one
// before it certainly false; nil and known when every one is certainly
// false; not known otherwise.
func certainArm(arms []*story.Transition, guard func(string) (bool, bool)) (*story.Transition, bool) {
	for _, a := range arms {
		if a == nil {
			return nil, false
		}
		if a.When == "" || a.Default() {
			return a, true
		}
		v, known := false, false
		if guard != nil {
			v, known = guard(a.When)
		}
		if !known {
			return nil, false
		}
		if v {
			return a, true
		}
	}
	return nil, true
}

// regionMoved is the configuration after the arm a of n (inside the
// region of leaf) is taken from r: its region's leaf replaced by where a
// moves it (regionStep), then each event a emits (its own emit: list,
// then each effect's emit:) handed to every other region in path order
// that has an arm for it (regionEmit); the zero rest where that is not
// certain.
func (l *fixtureLint) regionMoved(t *Turn, r rest, leaf, n *story.State, a *story.Transition) rest {
	p := r.in
	reg := regionOf(p, leaf)
	if reg == nil || !oneRegionEach(p, r.leaves) || !oneLeafEach(p, r.leaves) && len(armEmits(a)) > 0 {
		// a region without a leaf (startLeaves) receiving an emit, and
		// any move from two leaves of one region (a cross-region move's),
		// are not followed
		return rest{}
	}
	if l.ix.literalTarget(n, a) == p {
		return l.rootWritten(t, r, n, a)
	}
	to, ok := l.regionStep(reg, leaf, n, a)
	if !ok {
		return rest{}
	}
	leaves := slices.Clone(r.leaves)
	leaves[slices.Index(leaves, leaf)] = to
	moved, ok := l.regionEmits(t, p, reg, leaves, armEmits(a), l.midTurn(a, reg))
	if !ok {
		return rest{}
	}
	slices.SortFunc(leaves, byPath)
	also := ""
	if len(moved) > 0 {
		also = ", and its emits move " + strings.Join(moved, ", ")
	}
	if other := regionOf(p, to); other != reg {
		also += fmt.Sprintf(", a leaf of the region %q: the existing engine keeps it beside that region's own, and %q has no leaf", other.Path, reg.Path)
	}
	return rest{in: p, leaves: leaves, from: fmt.Sprintf("turns[%d] %q, fired at %q, moves the region %q from %q to %q (the arm of %q it certainly takes)%s, after %s",
		t.Index, t.Intent.Name, r.printed(), reg.Path, leaf.Path, to.Path, n.Path, also, r.from)}
}

// regionStep is where the arm a of n moves the leaf of the region reg:
// it (a stay) or a literal target in the same region, descended through
// literal initial:s, when a only sets, increments, says or emits an
// event, and every state of the region enters and exits the same way.
func (l *fixtureLint) regionStep(reg, leaf, n *story.State, a *story.Transition) (*story.State, bool) {
	ix := l.ix
	if !allEffects(a.Effects, plainEffect) || !regionQuiet(ix, reg) {
		return nil, false
	}
	tt := strings.TrimSpace(a.Target)
	if tt == "" || tt == "." && n == leaf {
		return leaf, true // a stay: no on_enter (conformance lint-par-spelling c)
	}
	d := ix.literalTarget(n, a)
	if d == nil {
		return nil, false
	}
	if other := regionOf(reg.Parent, d); other != reg {
		// a leaf of another region, reached by an arm that emits nothing:
		// it takes the leaf's place beside that region's own (conformance
		// lint-par-cross)
		if other == nil || !regionQuiet(ix, other) || len(armEmits(a)) > 0 {
			return nil, false
		}
		to, _, ok := ix.regionDescent(d) // its landing (conformance lint-par-untyped: p.rb itself)
		return to, ok
	}
	to, _, ok := ix.regionDescent(d)
	return to, ok
}

// armEmits are the events the arm a emits between regions: its emit:
// list, then each effect's emit: (story-runtime §3.5); nil when one is
// templated, which is not followed.
func armEmits(a *story.Transition) []string {
	evs := slices.Clone(a.Emit())
	for _, e := range a.Effects {
		if e != nil && e.Emit() != "" {
			evs = append(evs, e.Emit())
		}
	}
	if slices.ContainsFunc(evs, story.IsTemplated) {
		return []string{"{{"} // no region has an arm for it: regionEmit refuses it
	}
	return evs
}

// regionEvent is an event a receiving region's arm emits in turn.
type regionEvent struct {
	ev   string
	from *story.State // the region that emitted it, which never receives it
}

// regionEmits hands the events evs the region from emits to the other
// regions (regionEmit), each in turn, and then what each receiver emits
// in turn, receivers in path order (conformance lint-par-emit: c1 takes
// ev and then x, not x first); it changes leaves in place and names the
// moves. Not ok where a receiver of a receiver emits again, or where an
// arm emits several events and a receiver emits: that order is not
// followed.
func (l *fixtureLint) regionEmits(t *Turn, p, from *story.State, leaves []*story.State, evs []string, w *knownWorld) ([]string, bool) {
	var moved []string
	for _, ev := range evs {
		next, ok := l.regionEmit(t, p, from, leaves, ev, &moved, w)
		if !ok || len(next) > 0 && len(evs) > 1 {
			return nil, false
		}
		for _, n := range next {
			deeper, ok := l.regionEmit(t, p, n.from, leaves, n.ev, &moved, w)
			if !ok || len(deeper) > 0 {
				return nil, false
			}
		}
	}
	return moved, true
}

// regionEmit hands the event ev, emitted by a move in the region from,
// to every other region of p, in path order, whose leaf (or a state above
// it inside its region) has an arm for it, as both engines do (conformance
// lint-par-emit, story-runtime §3.5): each receiver's arm the engines
// certainly take (the first unguarded one, or whose when: is certain on
// w, the world as far as the turn has certainly left it, reading no
// slot) moves its leaf (regionStep) in leaves, and what it and its
// region may write is forgotten in w; what it emits is returned. Not ok
// where that is not certain: an arm for ev at p or above, a "*" arm, a
// receiver arm not certainly taken, a templated event.
func (l *fixtureLint) regionEmit(t *Turn, p, from *story.State, leaves []*story.State, ev string, moved *[]string, w *knownWorld) ([]regionEvent, bool) {
	if story.IsTemplated(ev) || takes(p, ev) {
		return nil, false
	}
	var next []regionEvent
	for _, leaf := range slices.SortedFunc(slices.Values(leaves), byPath) {
		reg := regionOf(p, leaf)
		if reg == from {
			continue // the emitting region never receives its own event
		}
		n, arms := armsOf(leaf, ev)
		if n == nil {
			continue
		}
		if !within(n, p) || !n.HasOn(ev) {
			return nil, false
		}
		a, known := certainArm(arms, l.midTurnGuard(t, w))
		if a == nil && known && !armAbove(n, reg, ev) {
			continue // every arm false: the region stays (conformance lint-par-emit-guard f)
		}
		if a == nil {
			return nil, false
		}
		to, ok := l.regionStep(reg, leaf, n, a)
		if !ok {
			return nil, false
		}
		leaves[slices.Index(leaves, leaf)] = to
		*moved = append(*moved, fmt.Sprintf("%q to %q (%q of %q)", reg.Path, to.Path, ev, n.Path))
		for _, e := range armEmits(a) {
			next = append(next, regionEvent{e, reg})
		}
		l.regionWrites(w, a, reg)
	}
	return next, true
}

// regionQuiet reports whether every state of the region reg (and reg)
// only sets, increments, says or emits an event on entry (an emit: the
// engines do not deliver: parLanding) and sets, increments or says on
// exit.
func regionQuiet(ix *storyIndex, reg *story.State) bool {
	return !slices.ContainsFunc(append(ix.under(reg), reg), func(s *story.State) bool {
		return !allEffects(s.OnEnter, plainEffect) || !allEffects(s.OnExit(), parQuiet)
	})
}

// regionOf is the child of the parallel state p holding s (or s itself).
func regionOf(p, s *story.State) *story.State {
	for x := s; x != nil; x = x.Parent {
		if x.Parent == p {
			return x
		}
	}
	return nil
}

// within reports whether s lies strictly inside a.
func within(s, a *story.State) bool {
	for x := s.Parent; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// oneLeafEach reports whether leaves holds one leaf of each region of p
// (a region is its own leaf when it has no children).
func oneLeafEach(p *story.State, leaves []*story.State) bool {
	if len(leaves) != len(p.Children) {
		return false
	}
	seen := map[*story.State]bool{}
	for _, s := range leaves {
		reg := regionOf(p, s)
		if reg == nil || seen[reg] || len(s.Children) > 0 || s.Parallel {
			return false
		}
		seen[reg] = true
	}
	return true
}

// oneRegionEach reports whether no two of leaves lie in one region of p
// (a cross-region move leaves two: regionStep).
func oneRegionEach(p *story.State, leaves []*story.State) bool {
	seen := map[*story.State]bool{}
	for _, s := range leaves {
		reg := regionOf(p, s)
		if reg == nil || seen[reg] {
			return false
		}
		seen[reg] = true
	}
	return true
}

// namedLeaves are the leaves the path want (root#leaf|leaf) names when
// its root is p and each names a state inside p; nil otherwise.
func (ix *storyIndex) namedLeaves(p *story.State, want string) []*story.State {
	root, _, ok := strings.Cut(want, "#")
	if !ok || root != p.Path {
		return nil
	}
	var out []*story.State
	for _, path := range leaves(want) {
		s := ix.byPath[path]
		if s == nil || !within(s, p) {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// parExpectLeaves is parAfter's judgement of an expect_state where next,
// inside the parallel state next.in, is certain: a warning when next's
// configuration is known and the expect_state names another path (not
// the same leaves out of order: parallelOrder's), else next with the
// leaves the expect_state names (the fixture fails there unless the
// engines rest at that very path). It reports whether it warned.
func (l *fixtureLint) parExpectLeaves(t *Turn, next *rest) bool {
	want := *t.ExpectState
	if len(next.leaves) > 0 {
		at := next.printed()
		named := l.ix.namedLeaves(next.in, want)
		if want == at || (named != nil && !slices.IsSortedFunc(named, byPath) && !strings.Contains(l.fx.InitialState, "#")) {
			return false // out of order: parallelOrder's (which leaves a root#leaf|leaf start alone)
		}
		how := "the path both engines print for that configuration"
		if next.spelling != "" {
			how = "spelled as the fixture named it last: both engines print that spelling until an intent is taken there"
		}
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but %s: the machine rests at %q (each region's leaf followed from the turns before it), %s, so the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, want, next.from, at, how, at)
		return true
	}
	if named := l.ix.namedLeaves(next.in, want); named != nil && oneLeafEach(next.in, named) {
		// it passes only where the engines print want: its leaves, tried by path
		next.leaves, next.spelling = slices.SortedFunc(slices.Values(named), byPath), want
	}
	return false
}

// printed is the path the engines print at r's configuration.
func (r rest) printed() string {
	if r.spelling != "" {
		return r.spelling
	}
	return parPath(r.in, r.leaves)
}

// byPath orders states by path, as the engines print a configuration.
func byPath(a, b *story.State) int { return strings.Compare(a.Path, b.Path) }

// midTurn is the world a receiver of the emits of the arm a, taken in
// the region reg, reads: the world before the turn (nil: unknown)
// with what a and reg's states may write forgotten.
func (l *fixtureLint) midTurn(a *story.Transition, reg *story.State) *knownWorld {
	if l.world == nil {
		return nil
	}
	w := l.world.clone()
	l.regionWrites(w, a, reg)
	return w
}

// regionWrites applies to w (nil: nothing) the effects of the arm a
// (plain: regionStep's) and forgets what the on_enter of the states of
// the region reg may write.
func (l *fixtureLint) regionWrites(w *knownWorld, a *story.Transition, reg *story.State) {
	if w == nil {
		return
	}
	orch := l.fx.Orchestrated()
	var calls []*story.Effect
	w.apply(a.Effects, orch, &calls)
	w.forget(calls, orch)
	for _, s := range append(l.ix.under(reg), reg) {
		w.forget(s.OnEnter, orch)
	}
}

// armAbove reports whether a state above n inside the region reg (or
// reg) has an arm for ev, which a receiver whose arms are all false
// might fall through to.
func armAbove(n, reg *story.State, ev string) bool {
	for x := n.Parent; x != nil && x != reg.Parent; x = x.Parent {
		if x.HasOn(ev) || x.HasOn("*") {
			return true
		}
	}
	return n.HasOn("*")
}

// midTurnGuard judges a receiver arm's when: on w: known only where it
// reads no slot (which slots a receiver sees is not followed).
func (l *fixtureLint) midTurnGuard(t *Turn, w *knownWorld) func(string) (bool, bool) {
	return func(when string) (bool, bool) {
		if g := l.guards.compile(when); w == nil || g == nil || len(g.skeys) > 0 {
			return false, false
		}
		cur := l.world
		l.world = w
		defer func() { l.world = cur }()
		return l.guardValue(when, t)
	}
}
