package conformance

import "slices"

// verdictRules are the ids of the fixture rules (pkg/flowtest's) whose
// findings say the fixture fails on both engines; the others describe a
// key, a value or a file, or say what a key does not do.
var verdictRules = []string{
	"flow-rejected", "flow-wrong-state", "flow-not-terminal", "flow-bad-regex", "flow-guard-error", "flow-world-never",
	"flow-world-known", "flow-inbox-known", "flow-error-code", "flow-partial-advance", "flow-call-never", "flow-job-never",
	"flow-cassette-unplayed", "flow-events", "flow-view", "flow-expect-slots",
}

// PredictsFailure reports whether a finding of the rule id says the
// fixture it is in fails on both engines (a verdict, which a fixture the
// existing engine passes must never get).
func PredictsFailure(id string) bool {
	return slices.Contains(verdictRules, id)
}
