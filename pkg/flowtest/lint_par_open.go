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
// it knows its leaves: p and every state inside it only set, increment,
// say or emit an event on entry, and no event an entry emits is taken by
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
	for _, s := range append(ix.under(p), p) {
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
func (l *fixtureLint) rootWritten(t *Turn, r rest, leaf, n *story.State, a *story.Transition) rest {
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
