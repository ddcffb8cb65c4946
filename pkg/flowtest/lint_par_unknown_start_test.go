package flowtest

import "testing"

// TestLintUnknownLeafStart: a parallel initial_state with an entry that
// is no state under a region (p.ra.zz, p.ra.a1.q, p.ra.x.y) is followed
// from its first turn on the engine's machine: a wrong expect_state,
// expect_view_matches or expect_world there is flagged (an expect_state
// naming no state of the story too: the rig compares paths as written),
// each passing
// neighbour is not (conformance lint-unknown-start-replay, against its
// upstream.json; the two paths of each fixture alike).
func TestLintUnknownLeafStart(t *testing.T) {
	want := map[string]string{}
	for _, p := range []string{"_orch.yaml", "_legacy.yaml"} {
		for _, pass := range []string{"a_moves_first", "c_unknown_stays", "e_root_arcs", "h_emit_world", "i_region_arc_leaves", "l_listed_reversed"} {
			want[pass+p] = ""
		}
		want["b_world_after_move"+p] = `turns[0].expect_world["n"]: 0, but after the turns before it and this one the fixture certainly holds 5`
		want["d_view_after_move"+p] = `turns[0].expect_view_matches: "A1", but the turn's intent "go", fired at "p#p.ra.zz|p.rb.b1", renders "P p 0\n\nB2 0" on the engine's own machine`
		want["f_after_root_arc"+p] = `turns[1].expect_state: "p#p.ra.zz|p.rb.b2", but the turn's intent "gb", fired at "p#p.ra.a1|p.rb.b1", rests at "p#p.ra.a1|p.rb.b1"`
		want["g_emit_state"+p] = unwarned
		want["j_region_arc_wrong"+p] = `turns[0].expect_state: "idle", but the turn's intent "top", fired at "p#p.ra.x.y|p.rb.b9", rests at "a" on the engine's own machine`
		want["k_state_path_view"+p] = `renders "P p 5\n\nA2 5" on the engine's own machine, run from "p#p.ra.a1|p.rb.b9"`
		want["m_reenter_view"+p] = `turns[1].expect_view_matches: "^P p#p.ra.a1\\|p.rb.b1 5", but the turn's intent "back", fired at "idle", renders "P p 0\n\nA1 0\n\nB1 0"`
	}
	lintGolden(t, "../engine/testdata/conformance/lint-unknown-start-replay", want, ruleRejected, ruleWrongState, ruleView, ruleWorldKnown)
}
