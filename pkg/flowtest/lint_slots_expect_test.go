package flowtest

import "testing"

// TestLintExpectSlots: an expect_slots entry the slots a turn sends
// certainly do not meet (conformance lint-expect-slots).
func TestLintExpectSlots(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-expect-slots", map[string]string{
		"a_no_slots_map.yaml":   `turns[0].expect_slots["color"]: "red", but the turn sends no slots: map`,
		"b_sent_other.yaml":     `turns[0].expect_slots["n"]: 2, but the turn sends slot n as written`,
		"c_sent_same_pass.yaml": "",
		"d_left_out.yaml":       `turns[0].expect_slots["color"]: "red", but the turn leaves slot color out`,
		"e_default_pass.yaml":   "", "f_template_orch_pass.yaml": "",
		"h_expect_error_pass.yaml": "", "i_null_pass.yaml": "", "j_number_pass.yaml": "",
		"l_orch_other.yaml":            `turns[0].expect_slots["n"]: 2, but the turn sends slot n as written`,
		"m_default_other.yaml":         unwarned,
		"n_float_whole_pass.yaml":      "",
		"p_left_out_default_pass.yaml": "",
		"q_empty_map.yaml":             `turns[0].expect_slots["color"]: "red", but the turn leaves slot color out`,
	}, ruleSlotsExpect)
}
