package flowtest

import "kitsoki/pkg/engine"

// parTakenExpectRejected is takenExpectRejected at the configuration
// r.leaves of the parallel state r.in the fixture certainly rests in:
// the engines' allowed set there is every printed leaf's and its
// ancestors' (a leaf the next intent is not looked up from included:
// lint-par-cross c), so a turn expecting INTENT_NOT_ALLOWED_IN_STATE
// for an intent one of them takes always fails (conformance
// par-start-two-leaves a, b, c: y at p#p.rb.b1|p.rb.b2, where b2 takes
// it). It reports whether it warned.
func (l *fixtureLint) parTakenExpectRejected(t *Turn, r rest) bool {
	ix, ee := l.ix, t.ExpectError
	if ee == nil || ee.Code != engine.CodeNotAllowed || r.in == nil || len(r.leaves) == 0 || t.Intent == nil || ix.unfolded || l.jobMayLand() {
		return false
	}
	name := t.Intent.Name
	if !ix.intents[name] || len(ix.aliases[name]) > 0 || !ix.leavesTake(r.leaves, name) {
		return false
	}
	l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q is taken at %q, the configuration of the parallel state %q the fixture certainly rests in, where %s (its leaves and the states above them take: %s): neither engine refuses it so (it is accepted there, or refused with another code), so the turn always fails; expect the code it is refused with, fire an intent none of them takes, or fix the turns before it",
		t.Index, engine.CodeNotAllowed, name, r.printed(), r.in.Path, r.from, leavesTaken(r.leaves))
	return true
}
