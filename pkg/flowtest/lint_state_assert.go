package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// stateAsserted warns at a turn's expect_not_state or expect_state_in
// that certainly fails (conformance lint-state-assert). Both engines
// compare the path the turn rests at as written, each key only when it
// is not empty (assert.go stateChecks), and a turn with expect_error
// checks neither. A turn fails them
//
//   - beside its own expect_state: the path that one names is the only
//     one where the turn can pass it, so an expect_not_state naming it,
//     or an expect_state_in not listing it, fails wherever the turn
//     rests;
//   - with no expect_state, where the lint knows the turn's rest as it
//     would judge an expect_state there (rest: a plain state, or one of
//     the states a failing call's on_error may move it to; a parallel
//     configuration as the engines print it; an exit left through),
//     in a story where no background job may move the machine
//     meanwhile: an expect_not_state naming that one path, or an
//     expect_state_in listing none of them.
//
// It reports whether it warned.
func (l *fixtureLint) stateAsserted(t *Turn) bool {
	if t.ExpectError != nil || !assertsOtherState(t) {
		return false
	}
	if t.ExpectState != nil && *t.ExpectState != "" {
		want := *t.ExpectState
		return l.stateAssertFails(t, []string{want}, fmt.Sprintf("the only path where turns[%d].expect_state passes", t.Index))
	}
	if t.ExpectState != nil || l.jobMayLand() {
		return false
	}
	paths := l.restPaths()
	if paths == nil {
		return false
	}
	return l.stateAssertFails(t, paths, l.rest.from)
}

// assertsOtherState reports whether t has an expect_not_state or an
// expect_state_in that asserts something (not empty).
func assertsOtherState(t *Turn) bool {
	return t.ExpectNotState != nil && *t.ExpectNotState != "" || len(t.ExpectStateIn) > 0
}

// restPaths is the paths the engines may print where the fixture rests
// now (l.rest), or nil where that is not known.
func (l *fixtureLint) restPaths() []string {
	r := l.rest
	switch {
	case r.at != nil && r.in == nil && r.exit == "":
		if slices.Contains(r.alt, nil) {
			return nil
		}
		return append([]string{r.at.Path}, statePaths(r.alt)...)
	case r.at == nil && r.in != nil && len(r.leaves) > 0 && r.exit == "":
		return []string{r.printed()}
	case r.at == nil && r.in == nil && r.exit != "":
		out := []string{"__exit__" + r.exit}
		for _, e := range r.exitAlt {
			out = append(out, "__exit__"+e)
		}
		return out
	}
	return nil
}

// statePaths is the paths of ss.
func statePaths(ss []*story.State) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Path
	}
	return out
}

// stateAssertFails warns at t's expect_not_state when paths is that one
// path, and at its expect_state_in when it lists none of paths; why says
// how the lint knows the turn rests there. It reports whether it warned.
func (l *fixtureLint) stateAssertFails(t *Turn, paths []string, why string) bool {
	if t.ExpectNotState != nil && len(paths) == 1 && *t.ExpectNotState == paths[0] {
		l.warn(t.valueAt("expect_not_state"), ruleWrongState, "turns[%d].expect_not_state: %q, but the turn rests there (%s): the assertion fails on both engines (state must not be %q); name another state, or fix the turns before it",
			t.Index, paths[0], why, paths[0])
		return true
	}
	if len(t.ExpectStateIn) > 0 && !slices.ContainsFunc(paths, func(p string) bool { return slices.Contains(t.ExpectStateIn, p) }) {
		at := fmt.Sprintf("%q", paths[0])
		if len(paths) > 1 {
			at = "one of " + strings.Join(quoteAll(paths), ", ")
		}
		l.warn(t.valueAt("expect_state_in"), ruleWrongState, "turns[%d].expect_state_in: [%s], but the turn rests at %s (%s): the assertion fails on both engines (the paths are compared as written); list where it rests, or fix the turns before it",
			t.Index, strings.Join(t.ExpectStateIn, " "), at, why)
		return true
	}
	return false
}

// quoteAll is each of ss quoted, for a message.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
