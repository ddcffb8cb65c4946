package fold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// BenchmarkFold folds the three-layer testdata and the frontier/robbery
// pair (load excluded).
func BenchmarkFold(b *testing.B) {
	for _, dir := range []string{"testdata/nested/top", filepath.Join(corpusDir(b), "frontier_event"), filepath.Join(corpusDir(b), "imports_smoke", "parent")} {
		st, _ := lint.Load(dir, story.Options{Trees: storyload.Trees()})
		if st == nil {
			b.Fatal("no story")
		}
		b.Run(filepath.Base(dir), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := New(st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFoldImports folds 50 imports of one 200-state child whose
// views, guards and effects read its world (10,000 states renamed).
func BenchmarkFoldImports(b *testing.B) {
	dir := b.TempDir()
	var c strings.Builder
	c.WriteString("app: {id: kid, version: 0.1.0}\nworld:\n  count: {type: int, default: 0}\n  out: {type: string, default: \"\"}\nintents:\n  next: {description: n}\nexits:\n  done: {description: d}\nroot: s0\nstates:\n")
	for i := range 200 {
		fmt.Fprintf(&c, "  s%d:\n    view: \"{{ world.count }} and {{ world.out }} at %d\"\n    on_enter: [{set: {out: \"{{ world.count + 1 }}\"}}]\n    on:\n      next:\n        - {target: s%d, when: \"world.count < 100 && world.out != ''\"}\n        - {target: \"@exit:done\"}\n", i, i, (i+1)%200)
	}
	var p strings.Builder
	p.WriteString("app: {id: top, version: 0.1.0}\nintents:\n  next: {description: n}\nroot: main\nimports:\n")
	for k := range 50 {
		fmt.Fprintf(&p, "  c%d: {source: ./kid, entry: s0, exits: {done: {to: main}}}\n", k)
	}
	p.WriteString("states:\n  main:\n    on:\n      next: [{target: c0}]\n")
	for f, s := range map[string]string{"kid/app.yaml": c.String(), "app.yaml": p.String()} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	st, ds := story.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	if st == nil || diag.HasErrors(ds) {
		b.Fatalf("load: %v", ds)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(st, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRewriteText renames the world references of the texts a
// child's state holds (a view, a guard, a set template and texts with no
// reference or only others'), as the fold does for each state copied.
func BenchmarkRewriteText(b *testing.B) {
	rw := childRewriter(nil, "sub", "count", "out")
	texts := []string{
		"{{ world.count }} and {{ world.out }} at 42",
		"world.count < 100 && world.out != ''",
		"{{ world.count + 1 }}",
		"{{ world.last_error }} in {{ slots.world.x }}",
		"no references in this view at all, just a long line of text",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			rw.text(s)
		}
	}
}
