package flowtest

import "testing"

// TestLintSetFails: a set: that may fail to render stops the settle walk
// (conformance lint-set-fails): upstream drops the chain whole in a job's
// completion turn (a-d), an on_error landing (g, h, and a region leaf's,
// k, l) and a post-bind round (i, j). Where it certainly fails on the
// known world the walk goes on as upstream does: the completion turn
// dropped, the machine at the job's origin (b, d), the landing swallowed
// on the landing state (h, and l's region leaf, entered flat), the round
// discarded (j). A failing say: stops nothing, and is followed (e, f).
func TestLintSetFails(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-fails", map[string]string{
		"a_job_stays.yaml":    "",
		"b_job_fin.yaml":      `1 of them dropped whole, the machine staying at the job's origin`,
		"c_chain_stays.yaml":  "",
		"d_chain_fin2.yaml":   `ends at "j2"`,
		"e_say_stays.yaml":    `turns[1].expect_state: "j3", but the turn advances the clock at "j3"`,
		"f_say_fin2.yaml":     "",
		"g_onerror_e1.yaml":   "",
		"h_onerror_fin2.yaml": `ends at "e1" (a failing call's on_error lands on it, and a set: of its on_enter fails to render: the landing is swallowed)`,
		"i_bind_b1.yaml":      "",
		"j_bind_b2.yaml":      `ends at "b1" (the post-bind round firing hop2 fails, a set: in it failing to render, and is discarded)`,
		"k_region_a1.yaml":    "",
		"l_region_a2.yaml":    `ends at "p.ra.a1" (a failing call's on_error lands on it, and a set: of its on_enter fails to render: the landing is swallowed)`,
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintBareNames: a set: naming a bare name fails its chain upstream
// (conformance bare-names: a job's on_complete set of
// {{ last_job_status }} drops the chain, the session stays at ja), so
// the settle walk does not render it as null and gives up there.
func TestLintBareNames(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/bare-names", map[string]string{
		"job.yaml": "", "known.yaml": "", "legacy_sayb.yaml": "", "sayb.yaml": "", "tob.yaml": "", "viewb.yaml": "",
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintSetCoercion: a literal set: a key's declared type coerces ("false"
// on a bool key) reads coerced for the rest of its turn (conformance
// values-set-coercion), so the known world leaves the key uncertain, as
// it does a rendered one: bool, child_job and legacy, which upstream
// passes, had flow-world-known findings.
func TestLintSetCoercion(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/values-set-coercion", map[string]string{
		"bool.yaml": "", "child_job.yaml": "", "legacy.yaml": "", "numbers.yaml": "",
	}, ruleWorldKnown, ruleWorldNever, ruleRejected, ruleWrongState)
}

// TestLintSetFailsNeighbours: the same certain failure elsewhere in a
// swallowed chain (conformance lint-set-fails-neighbours): a job's chain
// before its target, the on_enter of a compound its target enters, an
// arm's own on_error landing, a post-bind hop's target.
func TestLintSetFailsNeighbours(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-fails-neighbours", map[string]string{
		"a_chain_stays.yaml":    "",
		"b_chain_fin.yaml":      `ends at "j1"`,
		"c_anc_stays.yaml":      "",
		"d_anc_fin4.yaml":       `ends at "j4"`,
		"e_arm_onerror_e5.yaml": "",
		"f_arm_onerror_s0.yaml": `ends at "e5" (a failing call's on_error lands on it`,
		"g_postbind_b1.yaml":    "",
		"h_postbind_b2.yaml":    `ends at "b1" (the post-bind round firing hop2 fails, a set: in it failing to render`,
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintSetFailsRegion: an on_error landing on a parallel region's
// leaf whose set: certainly fails is swallowed there (conformance
// lint-set-fails-region): from an arm's call (b), a leaf in a compound
// of the region (d), after a bind (f). A landing that renders goes on
// by its one hop out of the parallel state (h: fin). A later turn from
// the flat path (i, j) is followed on the engine's own machine, run
// beside the walk (lint_par_replay.go; the story's job is answered after
// a delay, so it lands only in an advance), and so is the advance
// whose landing targets a region leaf (l: dropped, j5 stays).
func TestLintSetFailsRegion(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-fails-region", map[string]string{
		"a_arm_a1.yaml":       "",
		"b_arm_r1.yaml":       `ends at "p.ra.a1" (a failing call's on_error lands on it`,
		"c_nested_c1.yaml":    "",
		"d_nested_c2.yaml":    `ends at "p.ra.c.c1"`,
		"e_bind_b2.yaml":      "",
		"f_bind_fin.yaml":     `ends at "p.rb.b2"`,
		"g_renders_fin.yaml":  "",
		"h_renders_b3.yaml":   `ends at "fin" (a failing call's on_error redirects it)`,
		"i_then_look.yaml":    `turns[1].expect_state: "p.ra.a1", but the turn's intent "look", fired at "p.ra.a1", rests at "p.ra.a2" on the engine's own machine`,
		"j_then_look_r1.yaml": `turns[1].expect_state: "r1", but the turn's intent "look", fired at "p.ra.a1", rests at "p.ra.a2" on the engine's own machine`,
		"k_job_stays.yaml":    "",
		"l_job_a1.yaml":       `turns[1].expect_state: "p.ra.a1", but the turn only advances the clock, on a story with no timeout:, and the fixture rests at "j5" on the engine's own machine`,
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintDroppedChainWorld: the world after a chain upstream drops
// (conformance dropped-chain-world): a failing job chain leaves the world
// as before it (b, k), a failing target's move leaves the chain's writes
// (c, e), a swallowed on_error landing leaves the world it found (g, h,
// m). The call's last_error (i) is followed on the engine's own machine.
func TestLintDroppedChainWorld(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/dropped-chain-world", map[string]string{
		"a_job_y_before.yaml":   "",
		"b_job_y_set.yaml":      `turns[1].expect_world["y"]: "Y", but after the turns before it and this one the fixture certainly holds ""`,
		"c_target_before.yaml":  `certainly holds "Y2"`,
		"d_target_y.yaml":       "",
		"e_target_z.yaml":       `expect_world["z"]: "Z", but`,
		"f_onerror_before.yaml": "",
		"g_onerror_y.yaml":      `expect_world["y"]: "E", but`,
		"h_onerror_z.yaml":      `certainly holds "Q"`,
		"i_onerror_err.yaml":    `turns[0].expect_world["last_error"]: "", but after the turns before it and this one the fixture certainly holds "boom"`,
		"j_job_later.yaml":      "",
		"k_job_later_y.yaml":    `turns[2].expect_world["y"]: "Y"`,
		"l_bind_kept.yaml":      "",
		"m_bind_undone.yaml":    `certainly holds "V"`,
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}
