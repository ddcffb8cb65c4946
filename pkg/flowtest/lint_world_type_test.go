package flowtest

import (
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// An initial_world or world_override string on a key the story declares
// int, a null there, a scalar on an object key and a mapping on a list key
// are warned at the key, with the fix (unquote a number; else write one);
// a number, a string on a string key, a mapping on an object key, a list
// on a list key and an undeclared key are not.
func TestLintWorldType(t *testing.T) {
	st, _ := storylint.Load(rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte("test_kind: flow\ninitial_state: a\ninitial_world:\n  n: \"3\"\n  out: x\n  zz: \"1\"\nturns: []\n---\ntest_kind: flow\ninitial_state: a\ninitial_world: {n: abc}\nturns: []\n---\ntest_kind: flow\ninitial_state: a\ninitial_world: {n: 3, out: \"4\", obj: {a: 1}, items: [1]}\nturns:\n  - intent: {name: go}\n    world_override: {n: \"2\"}\n---\ntest_kind: flow\ninitial_state: a\ninitial_world: {n: null, obj: x, items: {a: 1}}\nturns: []\n"))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	var got []diag.Diagnostic
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleWorldType.ID {
			got = append(got, d)
		}
	}
	if len(got) != 6 || !hasDiag(got, diag.Warning, 23, 17, "initial_world.n: null") || !hasDiag(got, diag.Warning, 23, 26, "world.obj.field") || !hasDiag(got, diag.Warning, 23, 34, "initial_world.items: a mapping") || !hasDiag(got, diag.Warning, 19, 22, "turns[0].world_override.n: \"2\" is a string") || !hasDiag(got, diag.Warning, 4, 3, "write 3 without quotes") || !hasDiag(got, diag.Warning, 11, 17, "write an integer without quotes") {
		t.Fatalf("%v", got)
	}
}
