package flowtest

import "testing"

// TestLintWorldNonFinite: a NaN or an infinity the legacy path's world
// holds compares with an expect_world value by the %v forms of both, as
// the runner compares it (conformance lint-world-nonfinite): the text
// "NaN" and .nan match NaN, "+Inf" and .inf match +Inf; 1.5 and "nan" do
// not.
func TestLintWorldNonFinite(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-world-nonfinite", map[string]string{
		"a_nan_float.yaml": "",
		"b_nan_text.yaml":  "",
		"c_nan_other.yaml": `turns[0].expect_world["f"]: 1.5, but no path gives "f" that value`,
		"d_nan_lower.yaml": `turns[0].expect_world["f"]: "nan", but no path gives "f" that value`,
		"e_inf_any.yaml":   "",
		"f_inf_text.yaml":  "",
	}, ruleWorldKnown, ruleWorldNever)
}
