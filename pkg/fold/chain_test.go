package fold

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// importChain writes a chain of n stories, c0 importing c1 importing ...
// c<n-1>, under a top story importing c0, and returns the top's folder.
// A tiny story is one terminal state (a hostile repository of small
// files); a rich one uses what a fold rewrites: keys world keys (k0, k1
// ...), two intents, a view and guard reading a key, a set, a bare
// target, an @exit: its importer maps and an agent call with a prompt path.
func importChain(t testing.TB, n int, rich bool, keys int) string {
	t.Helper()
	files := map[string]string{
		"app.yaml": "app: { id: top, version: 0.1.0 }\nimports:\n  n: { source: ./c0, entry: s, exits: { out: { to: s } } }\nroot: s\nstates:\n  s: { terminal: true }\n",
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "app: { id: c%d, version: 0.1.0 }\n", i)
		if i < n-1 {
			fmt.Fprintf(&b, "imports:\n  n: { source: ../c%d, entry: s, exits: { out: { to: s } } }\n", i+1)
		}
		b.WriteString("exits:\n  out: {}\nroot: s\n")
		if !rich {
			b.WriteString("states:\n  s: { terminal: true }\n")
			files[fmt.Sprintf("c%d/app.yaml", i)] = b.String()
			continue
		}
		b.WriteString("world:\n")
		for j := range keys {
			fmt.Fprintf(&b, "  k%d: { type: int, default: 0 }\n", j)
		}
		b.WriteString(`intents:
  go: { description: go }
  back: { description: back }
states:
  s:
    view: "k={{ world.k0 }}"
    on:
      go:
        - target: t
          when: "world.k0 < 3"
          effects:
            - set: { k0: "{{ world.k0 }}" }
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

// BenchmarkDeepImportChain folds chains of tiny stories 100, 1,000 and
// 3,000 deep, and of rich ones 100 and 500 deep (load excluded).
func BenchmarkDeepImportChain(b *testing.B) {
	for _, c := range []struct {
		n    int
		rich bool
	}{{100, false}, {1000, false}, {3000, false}, {100, true}, {500, true}} {
		name := fmt.Sprintf("tiny/%d", c.n)
		if c.rich {
			name = fmt.Sprintf("rich/%d", c.n)
		}
		b.Run(name, func(b *testing.B) {
			st := loadAnyway(b, importChain(b, c.n, c.rich, 1))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := New(st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDeepImportChainAllocates: folding a chain of 1,000 tiny stories
// allocates about what the folded story holds (each state's path names
// its levels, so about 1 MB of paths). Rewriting every level's subtree
// again at each level above (upstream's fold, this one's before) allocated
// hundreds of times that.
func TestDeepImportChainAllocates(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 1,000 stories")
	}
	st := loadAnyway(t, importChain(t, 1000, false, 0))
	var err error
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, e := New(st, Options{}); e != nil {
				err = e
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	const ceiling = 64 << 20
	if got := r.AllocedBytesPerOp(); got > ceiling {
		t.Errorf("folding 1,000 levels allocated %d bytes, want at most %d", got, ceiling)
	}
}

// TestDeepImportChainRepeatsAreBounded: a chain whose wrappers reset
// every world key below them repeats its keys n²/2 times; past the fold's
// limit (Options.MaxRepeats; a small one here, MaxRepeats in production:
// TestProductionRepeatLimit) the fold is one error at the import that
// crossed it, naming the limit and the fix, instead of a folded story of
// gigabytes.
func TestDeepImportChainRepeatsAreBounded(t *testing.T) {
	opts := Options{MaxRepeats: testRepeatLimit}
	_, err := New(loadAnyway(t, overChain(t)), opts)
	var fe *Error
	if !errors.As(err, &fe) || len(fe.Problems) != 1 {
		t.Fatalf("New = %v, want one fold problem", err)
	}
	msg := err.Error()
	for _, want := range []string{"/app.yaml:", "imports.n.n.", "more than " + fmt.Sprint(testRepeatLimit) + " world resets", "import fewer levels deep"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not say %q:\n%s", want, msg)
		}
	}
	if _, err := New(loadAnyway(t, underChain(t)), opts); err != nil {
		t.Errorf("20 levels: %v", err)
	}
}
