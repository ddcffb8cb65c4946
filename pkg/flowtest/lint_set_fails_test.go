package flowtest

import "testing"

// TestLintSetFails: the settle walk gives up at a set: that may fail to
// render (conformance lint-set-fails): upstream drops the chain whole in
// a job's completion turn (a-d), an on_error landing (g, h, and a region
// leaf's, k, l) and a post-bind round (i, j), so the walk cannot say
// where it ends; a failing say: stops nothing, and is followed (e, f).
func TestLintSetFails(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-fails", map[string]string{
		"a_job_stays.yaml":    "",
		"b_job_fin.yaml":      unwarned,
		"c_chain_stays.yaml":  "",
		"d_chain_fin2.yaml":   unwarned,
		"e_say_stays.yaml":    `turns[1].expect_state: "j3", but the turn advances the clock at "j3"`,
		"f_say_fin2.yaml":     "",
		"g_onerror_e1.yaml":   "",
		"h_onerror_fin2.yaml": unwarned,
		"i_bind_b1.yaml":      "",
		"j_bind_b2.yaml":      unwarned,
		"k_region_a1.yaml":    "",
		"l_region_a2.yaml":    unwarned,
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
