package flowtest

import "testing"

// TestLintWorldAsserted: a text or bool expect_world asserts is the value
// a later turn's guards read (conformance lint-world-asserted).
func TestLintWorldAsserted(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-world-asserted", map[string]string{
		"a_asserted_ship.yaml":       `turns[1]: intent "ship", fired at "s1"`,
		"b_asserted_hold.yaml":       `turns[1]: intent "hold", fired at "s1"`,
		"c_asserted_wrong_ship.yaml": unwarned, "d_unasserted_ship.yaml": unwarned, "e_asserted_expect.yaml": unwarned,
		"f_asserted_ok_pass.yaml": "",
	}, ruleRejected, ruleWrongState, ruleWorldKnown)
}
