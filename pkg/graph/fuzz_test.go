package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/story"
)

// FuzzGraph: kitsoki graph over a repository under review (a manifest and
// an imported child beside it) draws whatever loads and folds, narrowed
// or not, in both formats, never panicking and never printing a terminal
// control raw.
func FuzzGraph(f *testing.F) {
	app, err1 := os.ReadFile(filepath.Join("testdata", "machine", "app.yaml"))
	child, err2 := os.ReadFile(filepath.Join("testdata", "machine", "child", "app.yaml"))
	if err1 != nil || err2 != nil {
		f.Fatalf("seed: %v %v", err1, err2)
	}
	f.Add(app, child)
	f.Add([]byte("app: {id: x}\nroot: a\nimports: {c: {source: ./child}}\nstates:\n  a:\n    on: {go: {target: c}}\n"),
		[]byte("app: {id: c}\nroot: b\nstates:\n  b:\n    on: {done: {exit: finished}}\nexits: {finished: {}}\n"))
	f.Add([]byte("app: {id: \"t\\u202e\"}\nroot: \"a\\u200b\"\nstates:\n  \"a\\u200b\":\n    type: parallel\n    states: {r: {states: {x: {}}}}\n"), []byte{})
	f.Fuzz(func(t *testing.T, app, child []byte) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "child"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "app.yaml"), app, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "child", "app.yaml"), child, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := Load(dir, story.Options{LookupEnv: func(string) (string, bool) { return "", false }})
		if err != nil {
			return
		}
		views := []View{{}, {Depth: 1}}
		if ns := g.Nodes(); len(ns) > 0 {
			views = append(views, View{State: ns[len(ns)/2].Path})
		}
		for _, v := range views {
			vg, err := g.View(v)
			if err != nil {
				continue
			}
			var dot, mmd bytes.Buffer
			if err := WriteDOT(&dot, vg, Options{}); err != nil {
				t.Fatalf("view %+v: WriteDOT: %v", v, err)
			}
			if err := WriteMermaid(&mmd, vg, Options{}); err != nil {
				t.Fatalf("view %+v: WriteMermaid: %v", v, err)
			}
			for name, out := range map[string]string{"dot": dot.String(), "mermaid": mmd.String()} {
				if i := strings.IndexFunc(out, termsafe.IsControl); i >= 0 {
					t.Fatalf("view %+v: %s holds %q raw at %d", v, name, []rune(out[i:])[0], i)
				}
			}
			_ = vg.IntentPaths()
		}
	})
}
