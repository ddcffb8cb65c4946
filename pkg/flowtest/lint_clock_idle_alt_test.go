package flowtest

import "testing"

// TestLintClockIdleAlt: a clock-only turn at a rest a call's on_error may
// have moved keeps every state of it where none has a timeout:
// (conformance lint-clock-idle-alt).
func TestLintClockIdleAlt(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-clock-idle-alt", map[string]string{
		"b_clock_idle.yaml":     `it stays at "work", or at "failed"`,
		"d_then_go.yaml":        `intent "go" is not taken at "work", where turns[1] only advances the clock`,
		"e_then_quit_work.yaml": `moves it to "done"`,
		"f_narrowed_retry.yaml": `intent "retry" is not taken at "work"`,
		"j_two_clocks.yaml":     `where turns[2] only advances the clock`,
		"g_expect_failed.yaml":  unwarned, "i_timeout_alt_bad.yaml": unwarned,
		"a_stays_work.yaml": "", "c_then_look.yaml": "", "h_timeout_alt.yaml": "",
	}, ruleRejected, ruleWrongState)
}
