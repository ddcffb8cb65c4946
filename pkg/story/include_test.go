package story

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	storytest.WriteFile(t, filepath.Join(dir, name), content)
}

func TestIncludeMergeAndErrorsInIncludedFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [rooms/*.yaml]\nintents: {go: {}}\nhosts: [host.run]\nstates:\n  a:\n    on:\n      go: [{target: b}]\n")
	write(t, dir, "rooms/1.yaml", "states:\n  b: {terminal: true}\nhosts: [host.inbox.add]\nworld: {x: 1}\napp: {id: ignored}\n")
	write(t, dir, "rooms/2.yaml", "states:\n  b: {}\n  c:\n    on:\n      go: [{target: a}]\n    terminl: true\nintents: {go: {}}\n")
	st, ds := Load(dir, Options{})
	if st.State("b") == nil || st.State("c") == nil || st.Var("x") == nil {
		t.Fatalf("merge incomplete")
	}
	if strings.Join(st.Hosts, ",") != "host.run,host.inbox.add" {
		t.Errorf("hosts union: %v", st.Hosts)
	}
	if st.App.ID != "i" {
		t.Errorf("app from included file must be dropped")
	}
	two := filepath.Join(dir, "rooms/2.yaml")
	want := map[string]bool{
		`include: state "b" is already declared`:   false,
		`include: intent "go" is already declared`: false,
		`unknown key "terminl"`:                    false,
	}
	for _, d := range ds {
		for w := range want {
			if strings.Contains(d.Message, w) {
				if d.File != two || d.Line == 0 {
					t.Errorf("%q reported at %s, want %s", w, d.Pos(), two)
				}
				want[w] = true
			}
		}
	}
	for w, ok := range want {
		if !ok {
			t.Errorf("missing %q in\n%s", w, render(ds))
		}
	}
}

func TestLoadBytesIgnoresInclude(t *testing.T) {
	st, ds := LoadBytes("<bytes>", []byte("app: {id: b}\nroot: a\ninclude: [rooms/*.yaml]\nstates: {a: {}}\n"), Options{})
	if st == nil || len(ds) != 0 || len(st.Manifests) != 1 {
		t.Fatalf("%v\n%s", st, render(ds))
	}
}
