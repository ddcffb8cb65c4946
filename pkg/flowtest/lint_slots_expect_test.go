package flowtest

import (
	"fmt"
	"testing"
)

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
		"m_default_other.yaml":         `turns[1].expect_slots["size"]: 2, but the turn leaves slot size out, so validation writes intent "pick"'s default 1`,
		"n_float_whole_pass.yaml":      "",
		"p_left_out_default_pass.yaml": "",
		"q_empty_map.yaml":             `turns[0].expect_slots["color"]: "red", but the turn leaves slot color out`,
	}, ruleSlotsExpect)
}

// TestLintExpectSlotsDefault: an expect_slots entry for a slot the turn
// leaves out, against the default the fired intent declares (conformance
// lint-expect-slots-default).
func TestLintExpectSlotsDefault(t *testing.T) {
	const def = `but the turn leaves slot %s out, so validation writes intent %q's default`
	const none = `but the turn leaves slot %s out, and intent %q declares no default for it that applies`
	lintGolden(t, "../engine/testdata/conformance/lint-expect-slots-default", map[string]string{
		"a_default_other.yaml":           fmt.Sprintf(def, "size", "pick"),
		"b_default_other_orch.yaml":      fmt.Sprintf(def, "size", "pick"),
		"c_undeclared_here.yaml":         fmt.Sprintf(none, "color", "pick"),
		"d_undeclared_null_pass.yaml":    "",
		"e_required_default_orch.yaml":   fmt.Sprintf(none, "req", "pick"),
		"f_defaults_same_pass.yaml":      "",
		"g_float_default_orch_pass.yaml": "",
		"j_other_default.yaml":           fmt.Sprintf(def, "k", "other"),
		"k_other_undeclared.yaml":        fmt.Sprintf(none, "size", "other"),
		"l_whole_float_orch_pass.yaml":   "",
		"m_text_default_pass.yaml":       "",
		"n_decls_differ.yaml":            unwarned,
		"o_decls_differ_pass.yaml":       "",
		"p_required_null_orch_pass.yaml": "",
		"q_required_legacy.yaml":         fmt.Sprintf(none, "req", "pick"),
	}, ruleSlotsExpect)
}
