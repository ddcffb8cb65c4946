package flowtest

import (
	"slices"
	"strings"
)

// parallelOrder warns at an expect_state naming a parallel state's leaves
// (root#a|b) in another order than the engines print them: sorted as
// strings (story-runtime §3.2), so the exact comparison never matches
// (probed: "review.watching#review.watching.ci.pending|review.watching.chat.quiet"
// fails against the state the engine prints, chat before ci). A fixture
// whose initial_state is itself a parallel path is not judged: the
// engines keep that spelling until the machine first moves.
func (l *fixtureLint) parallelOrder(t *Turn) {
	if t.ExpectState == nil || strings.Contains(l.fx.InitialState, "#") {
		return
	}
	want := *t.ExpectState
	root, rest, ok := strings.Cut(want, "#")
	if !ok || !l.ix.hasState(want) {
		return
	}
	leaves := strings.Split(rest, "|")
	if slices.IsSorted(leaves) {
		return
	}
	sorted := slices.Sorted(slices.Values(leaves))
	fixed := root + "#" + strings.Join(sorted, "|")
	l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q lists the leaves of the parallel state %q out of the order the engines print them (sorted by path), so the assertion never matches on either engine; write expect_state: %q",
		t.Index, want, root, fixed)
}
