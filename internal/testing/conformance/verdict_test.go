package conformance

import (
	"testing"

	"kitsoki/pkg/flowtest"
)

// Each verdict rule is a rule the fixture linter reports: a rule renamed
// or dropped there cannot leave PredictsFailure naming nothing.
func TestVerdictRulesAreFixtureRules(t *testing.T) {
	known := map[string]bool{}
	for _, r := range flowtest.Rules() {
		known[r.ID] = true
	}
	for _, id := range verdictRules {
		if !known[id] {
			t.Errorf("verdict rule %q is not among flowtest.Rules()", id)
		}
	}
}
