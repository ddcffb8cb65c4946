package flowtest

import "testing"

// TestLintStepRedirect: a certain move whose call carries an on_error
// elsewhere is settled by the walk, which answers the call from the
// stubs, under host_bindings too where a stub is named exactly as the
// invoke (conformance lint-step-redirect); a prefix stub is not followed.
func TestLintStepRedirect(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-step-redirect", map[string]string{
		"enter_err.yaml":       `ends at "bounced" (a failing call's on_error redirects it)`,
		"enter_err_later.yaml": `intent "poke" is not taken at "bounced"`,
		"enter_ok_bad.yaml":    `"bounced"`,
		"arm_err.yaml":         `ends at "failed" (a failing call's on_error redirects it)`,
		"bind_err.yaml":        `intent "poke" is not taken at "bounced"`,
		"bind_ok_bad.yaml":     `certainly holds "hi" there`,
		"enter_err_ok.yaml":    "", "enter_ok.yaml": "", "arm_err_ok.yaml": "", "bind_err_ok.yaml": "", "bind_prefix.yaml": "",
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}
