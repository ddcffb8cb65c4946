package flowtest

import "testing"

// TestLintIfaceReal: under host_bindings, an iface call no stub of its
// exact name serves runs the real handler (or none); one that binds
// nothing and names no on_error lands the turn whatever it answers, so
// the settle walk goes on past it (conformance lint-iface-real). A bind,
// an on_error, a delayed stub by prefix are not followed; the legacy k,
// which calls nothing, is followed on the engine's own machine from its
// first turn (lint_par_replay.go).
func TestLintIfaceReal(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-iface-real", map[string]string{
		"a_real_go_twice.yaml":           `turns[1]: intent "go" is not taken at "posted", where turns[0] "go", fired at "idle"`,
		"b_real_go_done.yaml":            "",
		"c_no_handler_go_twice.yaml":     `turns[1]: intent "go" is not taken at "posted"`,
		"d_delayed_stub.yaml":            unwarned,
		"e_bind_not_followed.yaml":       unwarned,
		"f_on_error_not_followed.yaml":   unwarned,
		"g_world_after_call.yaml":        `turns[0].expect_world["posted"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"h_world_after_call_passes.yaml": "",
		"j_stubbed.yaml":                 `turns[1]: intent "go" is not taken at "posted"`,
		"k_legacy.yaml":                  `turns[1]: intent "go", fired at "posted", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine, run from "idle" (where the fixture starts (initial_state)) through 2 turn(s) on the legacy path`,
	}, ruleRejected, ruleWrongState, ruleWorldKnown)
	// d's stub of the bound name serves the iface call: no unused stub
	st := loadGoldenStory(t, "../engine/testdata/conformance/lint-iface-real")
	for _, d := range lintFixtureFile(t, st, "../engine/testdata/conformance/lint-iface-real/flows/d_delayed_stub.yaml") {
		if d.Rule == ruleUnusedStub.ID {
			t.Errorf("%s", d)
		}
	}
}
