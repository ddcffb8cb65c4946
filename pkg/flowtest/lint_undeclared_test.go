package flowtest

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestLintUndeclaredIntent: an intent no state declares or takes, in a
// story with no "*" arm, is refused wherever it fires (conformance
// lint-undeclared-intent).
func TestLintUndeclaredIntent(t *testing.T) {
	nope := `turns[0]: intent "nope" is declared nowhere in the story and no state takes it (no on: nope arm, and no "*"): the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines`
	lintGolden(t, "../engine/testdata/conformance/lint-undeclared-intent", map[string]string{
		"a_legacy.yaml":            nope,
		"b_orch.yaml":              nope,
		"c_orch_root.yaml":         nope,
		"d_after_terminal.yaml":    `turns[1]: intent "nope" is declared nowhere in the story`,
		"e_expect_other_code.yaml": unwarned,
		"f_expect_any.yaml":        unwarned,
		"g_unknown_state.yaml":     nope,
		"h_clock.yaml":             nope,
		"i_input.yaml":             nope,
		"j_empty_name.yaml":        unwarned,
		"k_hash.yaml":              `turns[0]: intent "go.x" is declared nowhere in the story`,
	}, ruleRejected)
}

// TestLintUndeclaredWildcard: a "*" arm takes an undeclared intent
// (probed: upstream passes nope at a state with "*": [{target: a}]), so
// no verdict is given, and flow-unknown-intent says so.
func TestLintUndeclaredWildcard(t *testing.T) {
	app := filepath.Join(t.TempDir(), "app.yaml")
	src := `app: {id: uw}
intents: {go: {}}
root: a
states:
  a:
    view: A
    on:
      go: [{target: b}]
  b:
    view: B
    on:
      "*": [{target: a}]
`
	if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(app, story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, _ := parse("flows/w.yaml", []byte("test_kind: flow\ninitial_state: b\nuse_orchestrator: true\nturns:\n  - intent: {name: nope}\n    expect_state: a\n"))
	got := lint(st, fxs)
	for _, d := range got {
		if d.Rule == ruleRejected.ID {
			t.Fatalf("a verdict on an intent a \"*\" arm takes: %v", d)
		}
	}
	if !hasDiag(got, diag.Warning, 5, 20, `only a "*" arm can take it`) {
		t.Fatalf("%v", got)
	}
}
