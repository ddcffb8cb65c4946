package flowtest

import (
	"fmt"
	"strings"
)

// exitNeverMade reports whether p names an __exit__NAME state the
// story's loader never makes (engine.Machine.ExitState: only an exit an
// arm's or a timeout's written @exit:NAME names has one), and the story
// holds no state of that name: expect_terminal fails there on both
// engines (conformance exit-state-terminal). False when the story does
// not compile.
func (ix *storyIndex) exitNeverMade(p string) bool {
	if !strings.HasPrefix(p, "__exit__") || ix.states[p] || ix.unfolded {
		return false
	}
	m := ix.compiledMachine()
	return m != nil && m.States[p] == nil && !m.ExitState(p)
}

// exitNotTerminal warns at expect_terminal: true when the fixture's
// final state is an __exit__NAME the story never makes (exitNeverMade):
// its initial_state when it has no turn, else its last turn's
// expect_state (if the turn does not rest there, that assertion fails
// instead). It reports whether it warned.
func (l *fixtureLint) exitNotTerminal() bool {
	fx := l.fx
	p, from := fx.InitialState, "initial_state, with no turn"
	if n := len(fx.Turns); n > 0 {
		last := fx.Turns[n-1]
		if last.ExpectError != nil || last.ExpectState == nil {
			return false
		}
		p, from = *last.ExpectState, fmt.Sprintf("turns[%d].expect_state", last.Index)
	}
	if !l.ix.exitNeverMade(p) {
		return false
	}
	name := strings.TrimPrefix(p, "__exit__")
	l.warn(fx.valueAt("expect_terminal"), ruleNotTerminal, "expect_terminal: true, but the fixture ends in %q (%s), a state the story never makes: only an exit an arm's or a timeout's written @exit:%s names gets one: the check fails on both engines (state %q is not terminal); end the fixture where an arm or timeout leaves through @exit:%s, or drop expect_terminal",
		p, from, name, p, name)
	return true
}
