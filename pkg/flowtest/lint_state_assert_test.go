package flowtest

import "testing"

// TestLintStateAssert: an expect_not_state naming, or an expect_state_in
// leaving out, the path a turn certainly rests at (conformance
// lint-state-assert).
func TestLintStateAssert(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-state-assert", map[string]string{
		"a_not_rest.yaml":       `turns[0].expect_not_state: "a", but the turn rests there`,
		"b_in_rest.yaml":        `turns[0].expect_state_in: [b c], but the turn rests at "a"`,
		"c_not_other_pass.yaml": "", "d_in_listed_pass.yaml": "",
		"e_beside_not.yaml":    `turns[0].expect_not_state: "a", but the turn rests there`,
		"f_beside_in.yaml":     `turns[0].expect_state: "b"`,
		"g_guard_false.yaml":   `turns[0].expect_not_state: "a", but the turn rests there`,
		"h_orch_not.yaml":      `turns[1].expect_state_in: [a], but the turn rests at "idle"`,
		"i_exit_not.yaml":      `turns[0].expect_not_state: "__exit__out", but the turn rests there`,
		"j_exit_in_pass.yaml":  "",
		"k_par_in.yaml":        `turns[0].expect_state_in: [p], but the turn rests at "p#p.ra.a1|p.rb.b1"`,
		"l_par_not.yaml":       `turns[0].expect_not_state: "p#p.ra.a1|p.rb.b1", but the turn rests there`,
		"m_par_in_pass.yaml":   "",
		"n_clock_in.yaml":      `turns[1].expect_state_in: [t], but the turn rests at "a"`,
		"o_clock_in_pass.yaml": "", "p_empty_pass.yaml": "", "q_expect_error_pass.yaml": "",
		"r_call_alt_in.yaml":   `turns[0].expect_state_in: [b], but the turn rests at "a"`,
		"s_call_alt_pass.yaml": "", "t_call_alt_not_pass.yaml": "",
		"u_beside_unknown_not.yaml": `turns[1].expect_not_state: "b", but the turn rests there (the only path where turns[1].expect_state passes)`,
		"v_beside_unknown_in.yaml":  `turns[1].expect_state_in: [b], but the turn rests at "a" (the only path where turns[1].expect_state passes)`,
		"w_unknown_pass.yaml":       "", "x_beside_pass.yaml": "",
	}, ruleWrongState)
}
