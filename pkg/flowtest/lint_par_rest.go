package flowtest

import (
	"fmt"
	"slices"
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
	if prev == "" || t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded || l.jobMayLand() || ix.wildcard {
		return false
	}
	name := t.Intent.Name
	root, _, _ := strings.Cut(prev, "#")
	rs := ix.byPath[root]
	if rs == nil || !rs.Parallel || !ix.hasState(prev) || !ix.intents[name] || len(ix.aliases[name]) > 0 {
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
	if slices.ContainsFunc(ls, func(s *story.State) bool { return takes(s, name) || ix.aliasOf(s, name) != "" }) {
		return false
	}
	var chains []*story.State
	for _, s := range ls {
		for ; s != nil; s = s.Parent {
			chains = append(chains, s)
		}
	}
	list := takenBy(chains)
	l.warn(t.Intent.Pos, ruleRejected, "%s", fmt.Sprintf("turns[%d]: intent %q is not taken in the parallel state %q, where turns[%d].expect_state rests: no leaf of it, nor a region or ancestor above one, takes it (they take: %s): the turn is rejected %s on both engines, if the fixture gets this far; fire an intent one of them takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, prev, t.Index-1, list, engine.CodeNotAllowed, engine.CodeNotAllowed))
	return true
}
