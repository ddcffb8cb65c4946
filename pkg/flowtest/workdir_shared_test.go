package flowtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSharedWorkDirRemoved: the fixtures of conformance workdir-shared
// (real handlers under host_bindings) share one temporary directory for
// the run, with upstream's verdicts (f2 counts on from f1's comments, f3
// and f4 see them), and the run leaves nothing in TMPDIR.
func TestSharedWorkDirRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, _ := filepath.Abs("../engine/testdata/conformance/workdir-shared")
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := NewRunner(Options{Jobs: 4}).Run(context.Background(), files)
	want := map[string]bool{"f1_first.yaml": true, "f2_counts_on.yaml": true, "f3_fresh.yaml": false, "f4_stubbed_reads.yaml": false, "f5_stubbed_sees.yaml": true}
	if len(rs) != len(want) {
		t.Fatalf("%d results, want %d", len(rs), len(want))
	}
	for _, r := range rs {
		if name := filepath.Base(r.Flow.File); r.Passed() != want[name] {
			t.Errorf("%s passed=%v, want %v: %v", name, r.Passed(), want[name], r.Failures)
		}
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind in TMPDIR: %s", e.Name())
	}
}
