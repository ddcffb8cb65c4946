package flowtest

import "testing"

// TestLintParLeaves: from a quiet entry into a parallel state (or a
// start at root#leaf|leaf), the lint follows each region's leaf through
// the region moves it is certain of, and judges the next turn there: an
// intent no leaf takes, nor a state above one, is refused; every arm the
// leaves reach false is GUARD_FAILED; an expect_state naming another
// path fails (conformance lint-par-leaves). An emit, a cross-region move,
// the parallel state's own re-entry are not followed.
func TestLintParLeaves(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-leaves", map[string]string{
		"a_tick_twice.yaml":                 `turns[2]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry", the configuration of the parallel state "clock" the fixture certainly rests in, where turns[1] "tick", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.calendar" from "clock.calendar.day1" to "clock.calendar.day2" (the arm of "clock.calendar.day1" it certainly takes), after turns[0] "enter"`,
		"b_region_ancestor_then_tick.yaml":  `turns[2]: intent "tick" is not taken at "clock#clock.calendar.soggy|clock.sky.clear|clock.weather.dry"`,
		"c_tick_then_precip.yaml":           "",
		"d_wait_keeps.yaml":                 `turns[3]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"e_expect_stale.yaml":               `turns[1].expect_state: "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", but turns[1] "tick", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.calendar" from "clock.calendar.day1" to "clock.calendar.day2"`,
		"f_expect_right.yaml":               "",
		"g_emit_not_followed.yaml":          unwarned,
		"h_hash_start.yaml":                 `turns[1]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"i_hash_start_unsorted.yaml":        `turns[1]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"j_guard_true.yaml":                 `turns[2]: intent "warm" is not taken at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
		"k_guard_false_next_leaf.yaml":      `turns[2]: intent "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain", the configuration of the parallel state "clock" the fixture certainly rests in (where turns[1] "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.weather" from "clock.weather.dry" to "clock.weather.rain" (the arm of "clock.weather.dry" it certainly takes), after turns[0] "enter", fired at "outside" (where the fixture starts (initial_state)), enters "clock"), reaches the arms of "clock.calendar.day1" and of every leaf after it that takes it, and every one's when: is false on the world the fixture certainly has then (first: world.cold): the turn is rejected GUARD_FAILED`,
		"l_expect_leaf.yaml":                `turns[1].expect_state: "clock.calendar.day2", but turns[1] "tick"`,
		"m_legacy_tick_twice.yaml":          `turns[2]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"n_leave_enter_resets.yaml":         "",
		"o_stay_not_followed.yaml":          "",
		"q_on_enter_emit_not_followed.yaml": unwarned,
		"r_cross_region_not_followed.yaml":  unwarned,
		"s_expected_rejection.yaml":         "",
		"t_round_passes.yaml":               "",
		"u_unsorted_wait_label.yaml":        "",
		"v_unsorted_wait_sorted.yaml":       unwarned,
		"w_asserted_guard_false.yaml":       `turns[2]: intent "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
		"x_asserted_guard_true.yaml":        `turns[2]: intent "warm" is not taken at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
	}, ruleRejected, ruleWrongState)
}
