package flowtest

import "strings"

// oddRootWhat says, for a fixture's initial_state root#entries whose root
// is no parallel state of the story (a state that is not parallel, or
// none), what the start does, and reports whether it is one
// (conformance start-odd-root): the existing engine starts there, runs
// no on_enter, shows the root's view and its entries', arms the root's
// own timeout alone, and aborts the whole test run at the first intent.
func (ix *storyIndex) oddRootWhat(fx *Fixture) (string, bool) {
	root, _, ok := strings.Cut(fx.InitialState, "#")
	if !ok || ix.unfolded {
		return "", false
	}
	if p := ix.byPath[root]; p != nil && p.Parallel {
		return "", false
	}
	if fx.firesIntent() {
		return "the part before \"#\" is no parallel state: the existing engine aborts the whole test run at the first intent (\"state is not parallel\", no report) and kitsoki rejects it; start at a state, or at a parallel state's configuration (p#p.region.leaf|...)", true
	}
	return "the part before \"#\" is no parallel state: both engines rest there while the clock advances, the only timeout armed being that state's own, but an intent would abort the existing engine's whole test run; start at a state, or at a parallel state's configuration (p#p.region.leaf|...)", true
}

// oddRoot warns at initial_state when it is a path whose root is a state
// of the story but no parallel one (s0#p.a.x, c#c.a), which the
// unknown-state warning lets through since each part names a state.
func (l *fixtureLint) oddRoot() {
	fx, ix := l.fx, l.ix
	if !ix.hasState(fx.InitialState) {
		return // the unknown-state warning says it (oddRootWhat)
	}
	if what, ok := ix.oddRootWhat(fx); ok {
		l.warn(fx.valueAt("initial_state"), ruleUnknownState, "initial_state %q: %s", fx.InitialState, what)
	}
}
