package flowtest

import "testing"

// TestLintFirstRestTimer: the first intent after clock-only turns is
// judged at the initial_state while they stay short of its own timeout:,
// and at a parallel initial_state with no timeout: inside (conformance
// first-rest-timer; first-rest-clock f and g).
func TestLintFirstRestTimer(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/first-rest-timer", map[string]string{
		"a_short_sum_x.yaml":         `turns[2]: intent "x" is not taken at "t", where the fixture starts`,
		"e_par_clock_tick.yaml":      `turns[1]: intent "tick" is not taken at "clock", where the fixture starts`,
		"g_par_two_clocks_tick.yaml": `turns[2]: intent "tick" is not taken at "clock"`,
		"h_par_timer_tick.yaml":      unwarned,
		"b_fires_sum_x.yaml":         "", "c_exact_x.yaml": "", "d_short_go.yaml": "", "f_par_clock_leave.yaml": "", "i_par_timer_leave.yaml": "",
	}, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/first-rest-clock", map[string]string{
		"a_direct_x.yaml":        `intent "x" is not taken at "a"`,
		"b_clock_x.yaml":         `intent "x" is not taken at "a"`,
		"e_override_x.yaml":      `intent "x" is not taken at "a"`,
		"f_timeout_short_x.yaml": `intent "x" is not taken at "t"`,
		"g_timeout_fires_x.yaml": `intent "x" is not taken at "p.q"`,
		"c_clock_y.yaml":         "", "d_clock_y_x.yaml": "",
	}, ruleRejected, ruleWrongState)
}
