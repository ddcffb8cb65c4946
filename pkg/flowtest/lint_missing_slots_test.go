package flowtest

import "testing"

// TestLintMissingSlots: an expect_error.missing_slots no rejection of the
// turn lists, on the legacy path (conformance lint-missing-slots).
func TestLintMissingSlots(t *testing.T) {
	const other = "with missing_slots on the legacy path, where only a MISSING_SLOTS rejection lists missing slots"
	lintGolden(t, "../engine/testdata/conformance/lint-missing-slots", map[string]string{
		"a_optional_slot.yaml":            `turns[0].expect_error.missing_slots: "v", but intent "need" declares no required slot v`,
		"b_required_pass.yaml":            "",
		"c_undeclared_slot.yaml":          `turns[0].expect_error.missing_slots: "ghost", but intent "need" declares no required slot ghost`,
		"d_guard_code.yaml":               "turns[0].expect_error: code GUARD_FAILED " + other,
		"e_guard_code_orch_pass.yaml":     "",
		"f_sent_slot.yaml":                `turns[0].expect_error.missing_slots: "who", but the turn sends slot who with a value`,
		"g_sent_null_pass.yaml":           "",
		"h_not_allowed.yaml":              "turns[0].expect_error: code INTENT_NOT_ALLOWED_IN_STATE " + other,
		"i_empty_list_pass.yaml":          "",
		"j_decls_differ_pass.yaml":        "",
		"k_default_required_pass.yaml":    "",
		"l_template_sent.yaml":            `turns[0].expect_error.missing_slots: "who", but the turn sends slot who with a value`,
		"m_orch_optional_guard_pass.yaml": "",
		"n_second_turn.yaml":              `turns[2].expect_error.missing_slots: "what", but the turn sends slot what with a value`,
		"o_not_taken_missing.yaml":        `turns[1].expect_error: code MISSING_SLOTS, but intent "need" is not taken at "b"`,
	}, ruleErrorCode)
}
