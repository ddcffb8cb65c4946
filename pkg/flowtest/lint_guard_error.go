package flowtest

import "kitsoki/pkg/story"

// guardError warns at a turn whose intent, fired at at, reaches an arm
// whose when: fails to evaluate on the world and slots the fixture
// certainly has (a string compared with a number, a field of a string,
// an index past a list's end), every arm before it having a when: that
// is certainly false: both engines fail the turn with the guard's error
// (the existing engine aborts the whole test flows run). It reports
// whether it warned.
func (l *fixtureLint) guardError(t *Turn, at *story.State, arc, from string) bool {
	n, arms := armsOf(at, arc)
	if len(arms) == 0 {
		return false
	}
	for i, a := range arms {
		if a == nil || a.When == "" || a.Default() {
			return false
		}
		v, known, err := l.guardEval(a.When, t)
		if err != nil {
			l.warn(t.Intent.Pos, ruleGuardError, "turns[%d]: intent %q, fired at %q (where %s), reaches arm %d of %q, whose when: %q fails to evaluate on the world and slots the fixture certainly has then (%s)%s: the turn fails on both engines (the existing engine aborts the test run), if the fixture gets this far; fix the guard (a ?? default, a type conversion, a len() check) or set the values it reads (initial_world, world_override, the slots sent)",
				t.Index, t.Intent.Name, at.Path, from, i, n.Path, a.When, firstLine(err.Error()), earlier(i))
			return true
		}
		if !known || v {
			return false
		}
	}
	return false
}

// earlier says, for a message, that the arms before arm i are false.
func earlier(i int) string {
	if i == 0 {
		return ""
	}
	return ", every arm before it false on the same values"
}
