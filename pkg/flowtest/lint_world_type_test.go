package flowtest

import (
	"os"
	"path/filepath"
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

// A child's key is checked under the name the fold gives it (kid__food),
// with the child's declared type.
func TestLintWorldTypeFolded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("kid/app.yaml", "app: {id: kid}\nroot: enc\nworld:\n  food: {type: int, default: 0}\nintents: {check: {}}\nexits: {done: {}}\nstates:\n  enc:\n    on: {check: [{target: \"@exit:done\"}]}\n")
	write("app.yaml", "app: {id: top}\nroot: start\nintents: {go: {}}\nimports:\n  kid:\n    source: ./kid\n    entry: enc\n    exits: {done: {to: start}}\nstates:\n  start:\n    on: {go: [{target: kid}]}\n")
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, pds := parse("flows/l.yaml", []byte("test_kind: flow\ninitial_state: start\ninitial_world: {kid__food: \"3\", food: \"3\"}\nturns: []\n"))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	var got []diag.Diagnostic
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleWorldType.ID {
			got = append(got, d)
		}
	}
	if len(got) != 1 || !hasDiag(got, diag.Warning, 3, 17, "initial_world.kid__food: \"3\" is a string") {
		t.Fatalf("%v", got)
	}
}

// The fix for text on a typed key: unquote it only where the fixture
// decoder then reads the kind; a plain 1e20 is text already (it wants a
// point), so the fix names a form that is read as a number.
func TestTextFix(t *testing.T) {
	for _, c := range []struct{ s, kind, want string }{
		{"3", "int", "write 3 without quotes"},
		{"2.5", "float", "write 2.5 without quotes"},
		{"true", "bool", "write true without quotes"},
		{"abc", "int", "write an integer without quotes"},
		{"1e20", "float", "write 1.0e+20 (the fixture decoder reads 1e20 as text, quoted or not)"},
	} {
		if got := textFix(c.s, c.kind); got != c.want {
			t.Errorf("textFix(%q, %s) = %q, want %q", c.s, c.kind, got, c.want)
		}
	}
}
