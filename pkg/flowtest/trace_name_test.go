package flowtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Fixtures whose names fold to the same slug (non-ASCII names, spaces or
// underscores, a file named like another's folded path) each get their
// own --trace-dir file, also when run in parallel: none overwrites or
// interleaves with another's trace.
func TestTraceDirNamesAreUniquePerFixture(t *testing.T) {
	body := "test_kind: flow\ninitial_state: a" + stubs + "turns:\n  - intent: { name: go }\n"
	names := []string{"é.yaml", "ü.yaml", "ö ä.yaml", "a b.yaml", "a_b.yaml", "a%b.yaml", "plain.yaml"}
	tree := map[string]string{}
	for _, n := range names {
		tree[n] = body
	}
	dir := filepath.Join(t.TempDir(), "flows")
	storytest.WriteTree(t, dir, tree)
	app, _ := filepath.Abs(rigApp)
	files, _, err := DiscoverUnder("", nil, []string{app}, filepath.Join(dir, "*.yaml"), false, nil)
	if err != nil || len(files) != len(names) {
		t.Fatalf("%v %d", err, len(files))
	}
	td := t.TempDir()
	rs := NewRunner(Options{Jobs: 4, TraceDir: td}).Run(context.Background(), files)
	seen := map[string]string{}
	for _, r := range rs {
		wantPass(t, r)
		if other, dup := seen[r.Trace]; dup {
			t.Errorf("%s and %s share the trace %s", other, r.Name, r.Trace)
		}
		seen[r.Trace] = r.Name
		data, err := os.ReadFile(r.Trace)
		if err != nil || strings.Count(string(data), `"machine.transition"`) != 1 {
			t.Errorf("%s: trace %s: %v\n%.300s", r.Name, r.Trace, err, data)
		}
	}
	for _, r := range rs {
		if strings.HasSuffix(r.Name, "plain.yaml") && !strings.HasSuffix(r.Trace, "flows__plain.jsonl") {
			t.Errorf("a plain name changed: %s", r.Trace)
		}
	}
	if ents, _ := os.ReadDir(td); len(ents) != len(names) {
		t.Errorf("%d trace files for %d fixtures", len(ents), len(names))
	}
}
