package fold

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// importChain writes a chain of n stories, c0 importing c1 importing ...
// c<n-1>, under a top story importing c0, and returns the top's folder.
// Each story is small and uses what a fold rewrites: a world key, an
// intent, a view and guard reading the key, a set, a bare target, an
// @exit: mapped by its importer and an agent call with a prompt path.
func importChain(t testing.TB, n int) string {
	t.Helper()
	files := map[string]string{
		"app.yaml": "app: { id: top, version: 0.1.0 }\nimports:\n  n: { source: ./c0, entry: s, exits: { out: { to: s } } }\nroot: s\nstates:\n  s: { terminal: true }\n",
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "app: { id: c%d, version: 0.1.0 }\n", i)
		b.WriteString("world:\n  k: { type: int, default: 0 }\nintents:\n  go: { description: go }\n  back: { description: back }\nexits:\n  out: {}\n")
		if i < n-1 {
			fmt.Fprintf(&b, "imports:\n  n: { source: ../c%d, entry: s, exits: { out: { to: s } } }\n", i+1)
		}
		b.WriteString(`root: s
states:
  s:
    view: "k={{ world.k }}"
    on:
      go:
        - target: t
          when: "world.k < 3"
          effects:
            - set: { k: "{{ world.k }}" }
      back: [{ target: "@exit:out" }]
  t:
    on_enter:
      - invoke: host.agent.ask
        with: { prompt_path: p.md }
    on:
      back: [{ target: s }]
`)
		files[fmt.Sprintf("c%d/app.yaml", i)] = b.String()
		files[fmt.Sprintf("c%d/p.md", i)] = "ask\n"
	}
	return storytest.TempTree(t, files)
}

// BenchmarkDeepImportChain folds a chain of imports 100, 1,000 and 3,000
// stories deep (load excluded).
func BenchmarkDeepImportChain(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		st := loadAnyway(b, importChain(b, n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
