package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// importsTree writes a story importing k distinct children of s states
// each (the child of pkg/fold's BenchmarkFoldImports, its views, guards
// and effects reading its world) and returns its app.yaml.
func importsTree(tb testing.TB, dir string, k, s int) string {
	tb.Helper()
	var c strings.Builder
	c.WriteString("app: {id: kid, version: 0.1.0}\nworld:\n  count: {type: int, default: 0}\n  out: {type: string, default: \"\"}\nintents:\n  next: {description: n}\nexits:\n  done: {description: d}\nroot: s0\nstates:\n")
	for i := range s {
		fmt.Fprintf(&c, "  s%d:\n    view: \"{{ world.count }} and {{ world.out }} at %d\"\n    on_enter: [{set: {out: \"{{ world.count + 1 }}\"}}]\n    on:\n      next:\n        - {target: s%d, when: \"world.count < 100 && world.out != ''\"}\n        - {target: \"@exit:done\"}\n", i, i, (i+1)%s)
	}
	var p strings.Builder
	p.WriteString("app: {id: top, version: 0.1.0}\nintents:\n  next: {description: n}\nroot: main\nimports:\n")
	for i := range k {
		kid := filepath.Join(dir, "kid"+strconv.Itoa(i))
		if err := os.MkdirAll(kid, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(kid, story.StoryFile), []byte(c.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&p, "  c%d: {source: ./kid%d, entry: s0, exits: {done: {to: main}}}\n", i, i)
	}
	p.WriteString("states:\n  main:\n    on:\n      next: [{target: c0}]\n")
	app := filepath.Join(dir, story.StoryFile)
	if err := os.WriteFile(app, []byte(p.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return app
}

// BenchmarkImportsDistinct validates a story importing k distinct
// children of 1,000 states each, as `kitsoki validate` does. At k=1000
// the loader stops reading children past story.MaxFoldImportedStates
// (the tree is refused at imports.c250 either way).
func BenchmarkImportsDistinct(b *testing.B) {
	for _, k := range []int{100, 1000} {
		b.Run("k"+strconv.Itoa(k), func(b *testing.B) {
			app := importsTree(b, b.TempDir(), k, 1000)
			b.ReportAllocs()
			for b.Loop() {
				res := Run([]string{app}, Options{Story: story.Options{AllowUnsetEnv: true}})
				if want := k*1000 > story.MaxFoldImportedStates; len(res.Invalid) > 0 != want {
					b.Fatalf("invalid: %v, want %v: %v", res.Invalid, want, res.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkImportsMany validates a story importing k distinct one-state
// children: the cost per import, not per state.
func BenchmarkImportsMany(b *testing.B) {
	for _, k := range []int{1000, 4000} {
		b.Run("k"+strconv.Itoa(k), func(b *testing.B) {
			app := importsTree(b, b.TempDir(), k, 1)
			b.ReportAllocs()
			for b.Loop() {
				Run([]string{app}, Options{Story: story.Options{AllowUnsetEnv: true}})
			}
		})
	}
}
