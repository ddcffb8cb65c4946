package trace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/internal/safefile"
)

// TestOpenProjectSessions: a sessions directory inside the project root
// that a symlink leads out of is a *LinkOutError naming the directory as
// written and the root, whether the link's target exists or not, and
// wraps safefile.ErrOutsideRoot; the same directory named from outside
// the root, or with no root known, is the operator's and is opened by its
// name; a missing one inside the root holds no traces.
func TestOpenProjectSessions(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "home", ".kitsoki")
	if err := os.MkdirAll(filepath.Join(outside, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "sessions", "x.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".kitsoki", "sessions")
	for _, target := range []string{outside, filepath.Join(base, "absent")} {
		os.Remove(filepath.Join(root, ".kitsoki"))
		if err := os.Symlink(target, filepath.Join(root, ".kitsoki")); err != nil {
			t.Fatal(err)
		}
		s, err := OpenProjectSessions(root, dir)
		lo, ok := errors.AsType[*LinkOutError](err)
		if !ok || lo.Dir != dir || lo.Root != root || !errors.Is(err, safefile.ErrOutsideRoot) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("link to %s: %v, %v", target, s, err)
		}
	}
	for _, r := range []string{"", filepath.Join(base, "elsewhere")} {
		s, err := OpenProjectSessions(r, filepath.Join(outside, "sessions"))
		if err != nil {
			t.Fatalf("root %q: %v", r, err)
		}
		list, err := s.List(nil)
		s.Close()
		if err != nil || len(list) != 1 || list[0].ID != "x" {
			t.Fatalf("root %q: listed %+v, %v", r, list, err)
		}
	}
	os.Remove(filepath.Join(root, ".kitsoki"))
	s, err := OpenProjectSessions(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if list, err := s.List(nil); err != nil || len(list) != 0 {
		t.Fatalf("missing directory: %+v, %v", list, err)
	}
}
