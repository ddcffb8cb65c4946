package flowtest

import "testing"

// TestLintSetSlots: the settle walk renders a user turn's set: reading
// the turn's slots, on its arm and the on_enter its move enters
// (conformance lint-set-slots): the hop a guard on the value decides (b)
// and the value itself (c); an unsent slot with a default is not judged
// by the walk, but by the engine's own machine run beside it from the
// first turn (g; lint_par_replay.go).
func TestLintSetSlots(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-slots", map[string]string{
		"a_set_slot.yaml":      "",
		"b_wrong_state.yaml":   `turns[0].expect_state: "s1", but the turn's intent "note", fired at "s0" (where the fixture starts (initial_state)), ends at "s2"`,
		"c_wrong_world.yaml":   `turns[0].expect_world["x"]: "bye", but after the turns before it and this one the fixture certainly holds "hi" there`,
		"d_other_slot.yaml":    "",
		"e_unsent.yaml":        "",
		"f_default.yaml":       "",
		"g_default_wrong.yaml": `turns[0].expect_world["z"]: "", but after the turns before it and this one the fixture certainly holds "dflt" there`,
	}, ruleWorldKnown, ruleWorldNever, ruleWrongState)
}
