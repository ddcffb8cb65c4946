package flowtest

import (
	"fmt"
	"slices"

	"kitsoki/pkg/story"
)

// A parallel state one of whose states has an arm that may leave it (a
// target outside it, a templated one, a call that may be redirected) is
// not confined (parConfined): where the walk stops following its leaves
// the machine may be anywhere. Its configuration is still certain while
// every move from it is followed: entered quietly from a plain leaf, on
// the regions' initial leaves (parLanding), then each region's certain
// move (parRegionMove) or its own re-entry. parOpen is what that needs;
// parNext drops a rest inside such a state whose leaves it does not know
// (conformance lint-par-open: a region's arm to outside, not taken, left
// every other move unfollowed).

// parOpen reports whether the walk may hold the parallel state p while
// it knows its leaves: every state inside it only sets, increments,
// says or emits an event on entry, and no event an entry emits is taken by
// p or an ancestor (an arm's emit the root takes is not followed:
// regionEmit). A confined p is open.
func (ix *storyIndex) parOpen(p *story.State) bool {
	if ix.parConfined(p) {
		return true
	}
	var emits []string
	note := func(effs []*story.Effect) {
		for _, e := range effs {
			if e != nil && e.Emit() != "" {
				emits = append(emits, e.Emit())
			}
		}
	}
	note(p.OnEnter) // run on an entry from outside, which parLanding checks quiet
	for _, s := range ix.under(p) {
		if !allEffects(s.OnEnter, plainEffect) {
			return false
		}
		note(s.OnEnter)
	}
	return !slices.ContainsFunc(emits, func(ev string) bool { return story.IsTemplated(ev) || takes(p, ev) })
}

// heldOpen is next unless it rests inside a parallel state that is not
// confined at leaves the walk does not know: then the zero rest.
func (ix *storyIndex) heldOpen(next rest) rest {
	if next.in != nil && len(next.leaves) == 0 && !ix.parConfined(next.in) {
		return rest{}
	}
	return next
}

// rootWritten is the configuration after the arm a of n, taken from the
// leaf of r's configuration, targets the parallel state r.in itself: the
// machine enters it again and every region lands on its initial leaf
// (parLanding; a region written without type: compound on itself:
// conformance par-transition-view-root, lint-par-untyped), when the arm
// only sets, increments or says, emits nothing, and every state inside
// enters and exits the same way; the zero rest otherwise.
func (l *fixtureLint) rootWritten(t *Turn, r rest, n *story.State, a *story.Transition) rest {
	ix, p := l.ix, r.in
	if !allEffects(a.Effects, plainEffect) || len(armEmits(a)) > 0 || !allEffects(p.OnExit(), parQuiet) ||
		slices.ContainsFunc(p.Children, func(reg *story.State) bool { return !regionQuiet(ix, reg) }) {
		return rest{}
	}
	leaves, _, ok := ix.parLanding(p)
	if !ok {
		return rest{}
	}
	return rest{in: p, leaves: leaves, from: fmt.Sprintf("turns[%d] %q, fired at %q, takes the arm of %q that targets %q itself, whose regions land on %s, after %s",
		t.Index, t.Intent.Name, r.printed(), n.Path, p.Path, parPath(p, leaves), r.from)}
}

// bareEnter is where the first intent t, fired where the fixture starts
// bare on the parallel state p (its plain path as initial_state: no
// region entered), leaves it when the arm a of p it certainly takes
// names p or "." as its target: every region is entered down its
// initial:, the root's on_enter not run again (conformance
// bare-parallel-self, lint-par-bare), when the arm's effects are quiet,
// every state inside p enters quietly and emits nothing on entry, and p
// is open (parOpen); the zero rest otherwise.
func (l *fixtureLint) bareEnter(t *Turn, p *story.State, a *story.Transition, jr rest) rest {
	ix := l.ix
	if len(armEmits(a)) > 0 || !allEffects(a.Effects, parQuiet) || !ix.parOpen(p) ||
		slices.ContainsFunc(ix.under(p), func(s *story.State) bool { return !allEffects(s.OnEnter, parQuiet) }) {
		return rest{}
	}
	var leaves []*story.State
	for _, reg := range p.Children {
		leaf, _, ok := ix.regionDescent(reg)
		if !ok {
			return rest{}
		}
		leaves = append(leaves, leaf)
	}
	if len(leaves) == 0 {
		return rest{}
	}
	slices.SortFunc(leaves, byPath)
	return rest{in: p, leaves: leaves, from: fmt.Sprintf("turns[%d] %q, fired at %q (where %s), takes its arm naming it as target, which enters every region there: %s",
		t.Index, t.Intent.Name, p.Path, jr.from, parPath(p, leaves))}
}

// bareExpect is next, bareEnter's rest, after t's expect_state: a
// warning and the zero rest where it names another state of the story
// than the configuration next prints.
func (l *fixtureLint) bareExpect(t *Turn, next rest) rest {
	if next.in == nil || t.ExpectState == nil {
		return next
	}
	want, got := *t.ExpectState, next.printed()
	if want == got {
		return next
	}
	if l.ix.hasState(want) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but %s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, want, next.from, got)
	}
	return rest{}
}
