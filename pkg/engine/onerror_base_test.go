package engine

import (
	"path/filepath"
	"testing"

	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// An on_error "../" target climbs from the dispatch state: the leaf the
// turn ends in (an on_enter chain of a compound, a transition's effects),
// or inside a parallel state the declaring region's active leaf
// (story-runtime.md §2.4, §6.3 example B; docs/compat/engine.md).
func TestOnErrorResolvesAgainstDispatchState(t *testing.T) {
	for _, tc := range []struct{ intent, want string }{
		{"go_comp", "comp.err"},
		{"go_trans", "deep.err"},
		// landed flat, as every on_error target: the configuration is
		// left and par.a.error rests alone (conformance par-land)
		{"go_par", "par.a.error"},
	} {
		t.Run(tc.intent, func(t *testing.T) {
			// validate flags the parallel case (upstream corrupts the
			// path there); the finding is lint-only
			st, ds := lint.Load(filepath.Join("testdata", "onerror_base"), story.Options{})
			if st == nil || unrunnable(ds) {
				t.Fatalf("load: %v", ds)
			}
			m, err := Compile(st, CompileOptions{LateHandlers: true})
			if err != nil {
				t.Fatal(err)
			}
			s := startHosts(t, m, map[string]host.Handler{"host.a": stub(nil, "boom", 0)})
			fire(t, s, tc.intent)
			wantState(t, s, tc.want)
		})
	}
}
