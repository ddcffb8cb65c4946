package flowtest

import (
	"fmt"
	"strings"
)

// parRest is the parallel path a turn's expect_state names (the state
// the next turn certainly fires at, or the fixture already failed), for
// parallelAlias; "" when there is none.
func parRest(t *Turn) string {
	if t.ExpectError != nil || t.ExpectState == nil || !strings.Contains(*t.ExpectState, "#") {
		return ""
	}
	return *t.ExpectState
}

// parallelAlias warns at a turn that fires an imported child's bare
// intent spelling (ping for review__ping) while the fixture rests in a
// parallel state of that child: neither engine maps a bare spelling
// there, so the turn is rejected GUARD_FAILED whichever region or the
// root takes the arc (probed with the existing engine: bare ping and
// reject fail, review__ping and review__reject pass; the same arcs pass
// bare when the child runs alone). It reports whether it warned.
func (l *fixtureLint) parallelAlias(t *Turn, prev string) bool {
	if prev == "" || t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || l.ix.unfolded ||
		(l.ix.jobs && l.fx.Orchestrated()) {
		return false
	}
	root, _, _ := strings.Cut(prev, "#")
	rs := l.ix.byPath[root]
	name := t.Intent.Name
	if rs == nil || !rs.Parallel || !l.ix.hasState(prev) || takes(rs, name) {
		return false
	}
	arc := l.ix.aliasOf(rs, name)
	if arc == "" || arc == name {
		return false
	}
	l.warn(t.Intent.Pos, ruleRejected, "%s", fmt.Sprintf("turns[%d]: intent %q is an imported child's bare spelling of %q, but the fixture rests in the child's parallel state %q (turns[%d].expect_state), where neither engine maps a bare spelling: the turn is rejected GUARD_FAILED on both engines; write intent: {name: %s}",
		t.Index, name, arc, root, t.Index-1, arc))
	return true
}
