package flowtest

import "testing"

// TestLintWorldNull: an expected null is judged as any expect_world value
// (conformance lint-world-null).
func TestLintWorldNull(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-world-null", map[string]string{
		"a_default_null.yaml":   `expect_world["a"]: null, but after the turns before it and this one the fixture certainly holds "x"`,
		"c_set_then_null.yaml":  `certainly holds "y"`,
		"f_int_null.yaml":       `certainly holds 0`,
		"h_legacy_default.yaml": `certainly holds "x"`,
		"j_object_null.yaml":    `certainly holds {"k":"v"}`,
		"k_init_value.yaml":     `certainly holds "z"`,
		"b_absent_null.yaml":    "", "d_set_null.yaml": "", "e_init_null.yaml": "", "g_bind_null.yaml": "", "i_legacy_absent.yaml": "",
	}, ruleWorldKnown, ruleWorldNever)
}
