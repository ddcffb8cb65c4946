package flowtest

import "testing"

// TestLintLandingWorld: a certain arm whose landing is not certain still
// runs its effects and the on_enter of the states down to its target
// (conformance lint-landing-world).
func TestLintLandingWorld(t *testing.T) {
	const guard = `turns[2]: intent "hang", fired at "foyer" (where turns[1] "north" leads (its first arm, unguarded, moves "bar.dark" to "foyer")), reaches the arms of "foyer", and every one's when: is false on the world the fixture certainly has then (first: world.cloak == false)`
	lintGolden(t, "../engine/testdata/conformance/lint-landing-world", map[string]string{
		"a_dark_passes.yaml":          "",
		"b_entered_wrong.yaml":        `turns[0].expect_world["entered_bar"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"c_back_then_guard.yaml":      guard,
		"d_back_cloak_wrong.yaml":     unwarned,
		"e_dark_visits_wrong.yaml":    unwarned,
		"f_override_lit_passes.yaml":  "",
		"g_legacy_entered_wrong.yaml": `turns[0].expect_world["entered_bar"]: false`,
		"h_went_wrong.yaml":           `turns[0].expect_world["went"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"i_legacy_back_guard.yaml":    guard,
		"j_back_passes.yaml":          "",
		"k_unnamed_back_guard.yaml":   unwarned,
	}, ruleRejected, ruleWrongState, ruleWorldKnown, ruleWorldNever)
}
