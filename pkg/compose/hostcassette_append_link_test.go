package compose

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/engine"
)

// TestRecordAppendsOnlyInsideTheRoot: a recording cassette swapped, after
// it was read, for a symlink leading out of the project (as a fixture's
// real handler may do) is not appended to, and nothing outside changes;
// the same file back inside gets the episode.
func TestRecordAppendsOnlyInsideTheRoot(t *testing.T) {
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, "cas"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cas := filepath.Join(proj, "cas", "c.yaml")
	body := "kind: host_cassette\nrecord_mode: new_episodes\nepisodes: []\n"
	target := filepath.Join(outside, "t.yaml")
	for _, p := range []string{cas, target} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hc, err := ParseFlowHostCassette(cas, []byte(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := hc.FlowRecordMode("", false); err != nil {
		t.Fatal(err)
	}
	hc.AppendIn(proj)
	call := engine.ReplayCall{Handler: "host.x", State: "s"}
	// the file, then its directory, swapped for a link leading out
	if err := os.Remove(cas); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, cas); err != nil {
		t.Fatal(err)
	}
	hc.Record(call, map[string]any{"a": 1}, "")
	if err := os.RemoveAll(filepath.Join(proj, "cas")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "cas")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(target, filepath.Join(outside, "c.yaml")); err != nil {
		t.Fatal(err)
	}
	hc.Record(call, map[string]any{"a": 2}, "")
	if b, err := os.ReadFile(filepath.Join(outside, "c.yaml")); err != nil || string(b) != body {
		t.Fatalf("the file outside was written: %q %v", b, err)
	}
	// back inside: appended
	if err := os.Remove(filepath.Join(proj, "cas")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "cas"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cas, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	hc.Record(call, map[string]any{"a": 3}, "")
	if b, err := os.ReadFile(cas); err != nil || !strings.Contains(string(b), "recorded_host.x_s") {
		t.Fatalf("the cassette inside was not appended to: %q %v", b, err)
	}
}
