package flowtest

import "testing"

// TestLintWorldFull: an expect_world_full value the world certainly does
// not hold, or a key it certainly holds left out (conformance
// lint-world-full).
func TestLintWorldFull(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-world-full", map[string]string{
		"a_legacy_unlisted.yaml":           `turns[0].expect_world_full leaves out "s"`,
		"b_legacy_all_pass.yaml":           "",
		"c_orch_session.yaml":              `turns[0].expect_world_full leaves out "session_id"`,
		"d_orch_all_pass.yaml":             "",
		"e_override_legacy.yaml":           `turns[1].expect_world_full leaves out "zz"`,
		"f_override_orch.yaml":             `turns[1].expect_world_full leaves out "zz"`,
		"g_value_differs.yaml":             `turns[0].expect_world_full["n"]: 5, but`,
		"h_rig_key_unlisted.yaml":          `turns[0].expect_world_full leaves out "turn_cost_usd"`,
		"i_initial_null_legacy.yaml":       `turns[0].expect_world_full leaves out "r"`,
		"j_expect_error_pass.yaml":         "",
		"k_orch_ide_unlisted.yaml":         `turns[0].expect_world_full leaves out "ide"`,
		"l_override_rejected_orch.yaml":    `turns[1].expect_world_full leaves out "zz"`,
		"m_initial_orch.yaml":              `turns[0].expect_world_full leaves out "zz"`,
		"n_override_listed_orch_pass.yaml": "",
		"o_override_template_orch.yaml":    unwarned,
	}, ruleWorldKnown)
}
