package flowtest

import (
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestLintSlotUint: a fixture slot written as a whole number that is not
// negative, read whole by a host.run timeout or args element or a
// host.starlark.run input under host_bindings, is refused by the real
// handler (conformance lint-slot-uint): the settle walk answers the call
// with that failure, so the bind it expects (arg, tmo, enter, star, after,
// later, kid) or the arm's own target (err) is flagged; a parallel
// region's on_enter (par) is not followed; a slot that is no uint64, a
// stub, or the fixes are not refused.
func TestLintSlotUint(t *testing.T) {
	known := `certainly holds "" there`
	lintGolden(t, "../engine/testdata/conformance/lint-slot-uint", map[string]string{
		"arg.yaml": known, "tmo.yaml": known, "enter.yaml": known, "star.yaml": known,
		"after.yaml": known, "later.yaml": known, "kid.yaml": known,
		"err.yaml":    `ends at "failed" (a failing call's on_error redirects it)`,
		"par.yaml":    unwarned,
		"arg_ok.yaml": "", "err_ok.yaml": "", "str.yaml": "", "neg.yaml": "", "flt.yaml": "",
		"text.yaml": "", "stub.yaml": "", "argfix.yaml": "", "tmofix.yaml": "", "starfix.yaml": "",
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintSlotUintWarns: flow-slot-uint is at the slot, once per turn,
// naming the handler's words, on a fixture that expects the failure too.
func TestLintSlotUintWarns(t *testing.T) {
	want := map[string]string{
		"arg.yaml":    `reaches host.run args[1] as a uint64`,
		"arg_ok.yaml": `("args[1]: unsupported type uint64")`,
		"tmo.yaml":    `reaches host.run timeout as a uint64`,
		"star.yaml":   `reaches host.starlark.run input "v" as a uint64`,
		"kid.yaml":    `turns[1]: slot "n" value 3`,
		"par.yaml":    "",
		"str.yaml":    "",
		"stub.yaml":   "",
		"argfix.yaml": "",
	}
	dir := "../engine/testdata/conformance/lint-slot-uint"
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			var got []diag.Diagnostic
			for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "flows", name)) {
				if d.Rule == ruleSlotUint.ID {
					got = append(got, d)
				}
			}
			wantFinding(t, got, w)
		})
	}
}
