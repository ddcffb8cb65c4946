package flowtest

import (
	"fmt"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// parallelNotTaken warns at a turn that fires, where the previous turn's
// expect_state rests the fixture in a parallel state (prev, root#a|b),
// an intent that no leaf of it takes, nor any ancestor of one (each
// region, the parallel root and above), nor "*": the turn is rejected
// INTENT_NOT_ALLOWED_IN_STATE on both engines (gen storymut 992134,
// parallel_smoke: at clock#clock.calendar.soggy|clock.weather.rain, tick
// (day1's), enter (outside's) and make_it_rain (dry's) are each
// rejected). An imported child's bare spelling is parallelAlias's; a
// story whose moving background job may be out is not judged. It
// reports whether it warned.
func (l *fixtureLint) parallelNotTaken(t *Turn, prev string) bool {
	ix := l.ix
	name := l.parIntent(t)
	if prev == "" || name == "" {
		return false
	}
	root, _, _ := strings.Cut(prev, "#")
	rs := ix.byPath[root]
	if rs == nil || !rs.Parallel || !ix.hasState(prev) {
		return false
	}
	var ls []*story.State
	for _, p := range leaves(prev) {
		s := ix.byPath[p]
		if s == nil || !strings.HasPrefix(p, root+".") {
			return false
		}
		ls = append(ls, s)
	}
	if ix.leavesTake(ls, name) {
		return false
	}
	list := leavesTaken(ls)
	l.warn(t.Intent.Pos, ruleRejected, "%s", fmt.Sprintf("turns[%d]: intent %q is not taken in the parallel state %q, where turns[%d].expect_state rests: no leaf of it, nor a region or ancestor above one, takes it (they take: %s): the turn is rejected %s on both engines, if the fixture gets this far; fire an intent one of them takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, prev, t.Index-1, list, engine.CodeNotAllowed, engine.CodeNotAllowed))
	return true
}
