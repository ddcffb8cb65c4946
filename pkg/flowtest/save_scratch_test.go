package flowtest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kitsoki/internal/filelock"
)

// A save sweeps the scratch cassettes that killed saves left beside the
// fixture (no lock held on them), keeps a live save's (locked) and every
// other file, and removes its own on the way out.
func TestWriteScratchSweepsDeadSaves(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".save-fixture-123.cassette.yaml") // a save killed by a second Ctrl-C
	write("kept.cassette.yaml")
	write(".save-fixture-notes.txt")
	live, err := os.Open(write(".save-fixture-456.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := filelock.Try(live); err != nil { // this save's lock
		t.Fatal(err)
	}
	s, err := writeScratch(dir, []byte("episodes: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		ents, _ := os.ReadDir(dir)
		var n []string
		for _, e := range ents {
			n = append(n, e.Name())
		}
		return n
	}
	mine := filepath.Base(s.Name())
	want := []string{".save-fixture-456.cassette.yaml", ".save-fixture-notes.txt", mine, "kept.cassette.yaml"}
	slices.Sort(want)
	if got := names(); !slices.Equal(got, want) {
		t.Fatalf("after writeScratch: %v, want %v", got, want)
	}
	// another save sees this one as live
	other, err := writeScratch(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	other.remove()
	s.remove()
	want = slices.DeleteFunc(want, func(n string) bool { return n == mine })
	if got := names(); !slices.Equal(got, want) {
		t.Fatalf("after remove: %v, want %v", got, want)
	}
}
