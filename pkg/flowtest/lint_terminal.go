package flowtest

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// notTerminal warns at a fixture's expect_terminal: true when the state
// the fixture certainly ends in is declared without terminal: true: the
// check (flow-format §3.12: the final state is looked up by its dotted
// path, terminal: true is required, __exit__ states qualify) fails on
// both engines. The final state is the last turn's expect_state (if the
// turn does not rest there, that assertion fails instead: the fixture
// fails either way), else where the fixture certainly rests after its
// last turn (lint_rejected.go's rest). A name that is no plain leaf (a
// parallel path, a compound, an unknown state) is not judged. Found by
// gen storymut (ended: terminal removed; seeds 985570, 985571, 985751,
// 985790: "expect_terminal: state \"ended\" is not terminal").
func (l *fixtureLint) notTerminal() {
	fx := l.fx
	if fx.ExpectTerminal == nil || !*fx.ExpectTerminal || l.exitNotTerminal() || len(fx.Turns) == 0 {
		return
	}
	last := fx.Turns[len(fx.Turns)-1]
	var s *story.State
	from := ""
	switch {
	case last.ExpectError == nil && last.ExpectState != nil:
		if strings.HasPrefix(*last.ExpectState, "__exit__") {
			return
		}
		s = l.ix.plainLeaf(*last.ExpectState)
		from = fmt.Sprintf("turns[%d].expect_state", last.Index)
	case l.rest.at != nil && len(l.rest.alt) == 0:
		s, from = l.rest.at, "where the last turn certainly leaves it: "+l.rest.from
	}
	if s == nil || s.Terminal {
		return
	}
	l.warn(fx.valueAt("expect_terminal"), ruleNotTerminal, "expect_terminal: true, but the fixture ends in %q (%s), which is not declared terminal: true: the check fails on both engines (state %q is not terminal); declare terminal: true on %q, end the fixture in a terminal state, or drop expect_terminal",
		s.Path, from, s.Path, s.Path)
}
