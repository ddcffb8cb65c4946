package flowtest

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
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
	if prev == "" || !l.ix.hasState(prev) {
		return false
	}
	root, _, _ := strings.Cut(prev, "#")
	var ls []*story.State
	for _, p := range leaves(prev) {
		ls = append(ls, l.ix.byPath[p])
	}
	return l.bareInParallel(t, l.ix.byPath[root], ls, fmt.Sprintf("turns[%d].expect_state", t.Index-1))
}

// parallelAliasIn is parallelAlias where the fixture certainly rests
// inside the child's parallel state r.in with no expect_state naming it
// (gen write -kind mutate -seed 1001303 -from conformance goldens, story
// 003: import-par-bare-alias's quit after kid__hop entered kid.kp, refused
// GUARD_FAILED upstream, unwarned).
func (l *fixtureLint) parallelAliasIn(t *Turn, r rest) bool {
	return r.in != nil && l.bareInParallel(t, r.in, r.leaves, "where "+r.from)
}

// bareInParallel warns at t's bare spelling of an imported child's arc
// fired in the child's parallel state rs (why: how the fixture is known
// to rest there): the arc of rs or an ancestor, of a region (an ancestor
// of its current leaf whatever that is), or of a known leaf ls (and its
// ancestors) passes upstream's allowed-set check and then matches no arm
// (conformance import-par-bare-alias: quit, taken by the region ra).
func (l *fixtureLint) bareInParallel(t *Turn, rs *story.State, ls []*story.State, why string) bool {
	if rs == nil || !rs.Parallel || t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || l.ix.unfolded ||
		(l.ix.jobs && l.fx.Orchestrated()) {
		return false
	}
	name := t.Intent.Name
	cands := append([]*story.State{rs}, rs.Children...)
	for _, s := range ls {
		if s == nil || !strings.HasPrefix(s.Path, rs.Path+".") {
			return false // a leaf the lint does not know
		}
		cands = append(cands, s)
	}
	arc := ""
	for _, c := range cands {
		if takes(c, name) {
			return false
		}
		if a := l.ix.aliasOf(c, name); arc == "" && a != "" && a != name {
			arc = a
		}
	}
	if arc == "" {
		return false
	}
	l.warn(t.Intent.Pos, ruleRejected, "%s", fmt.Sprintf("turns[%d]: intent %q is an imported child's bare spelling of %q, but the fixture rests in the child's parallel state %q (%s), where neither engine maps a bare spelling: the turn is rejected GUARD_FAILED on both engines; write intent: {name: %s}",
		t.Index, name, arc, rs.Path, why, arc))
	return true
}
