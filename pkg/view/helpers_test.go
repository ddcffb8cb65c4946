package view

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

func corpus(name string) string {
	return filepath.Join("testdata", "corpus", name)
}

// defaults returns the story's world defaults.
func defaults(st *story.Story) map[string]any {
	w := map[string]any{}
	for _, v := range st.World {
		w[v.Name] = v.Default
	}
	return w
}

func with(w map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range w {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// wantRenders renders each state path of cases against world and fails
// where the render differs from the case's text.
func wantRenders(t testing.TB, r *Renderer, world map[string]any, cases map[string]string) {
	t.Helper()
	for path, want := range cases {
		if got := render(t, r, path, world); got != want {
			t.Errorf("%s:\n got %q\nwant %q", path, got, want)
		}
	}
}

// foldedRenderer folds st and returns the fold, a renderer resolving each
// state's files in the story that declared it, and the folded world's
// defaults.
func foldedRenderer(t testing.TB, st *story.Story) (*fold.Folded, *Renderer, map[string]any) {
	t.Helper()
	f, err := fold.New(st, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRenderer(f.Story)
	r.dirFor = func(path string) string {
		if si := f.Info(path); si != nil {
			return si.Dir
		}
		return f.Story.Dir
	}
	return f, r, defaults(f.Story)
}

func render(t testing.TB, r *Renderer, path string, world map[string]any) string {
	t.Helper()
	out, err := r.RenderView(path, world, nil)
	if err != nil {
		t.Fatalf("RenderView(%q): %v", path, err)
	}
	return out
}

// loadLax loads a story whose lint errors upstream's loader would accept
// (a map literal in a view when:, a pongo2 ternary), as kitsoki run does
// with warnings. The errors are returned for the test to check.
func loadLax(t testing.TB, dir string) (*story.Story, []diag.Diagnostic) {
	t.Helper()
	st, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	if st == nil {
		t.Fatalf("load %s: no story: %v", dir, ds)
	}
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	return st, errs
}
