package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
)

// swapFixture lays out a sessions directory holding a trace at the top
// and one in sub/, and, outside it, a directory of traces whose header
// names a canary app; it returns the sessions directory and the outside
// directory.
func swapFixture(t *testing.T) (sessions, outside string) {
	t.Helper()
	base := t.TempDir()
	sessions = filepath.Join(base, "repo", ".kitsoki", "sessions")
	outside = filepath.Join(base, "home", "sessions")
	header := func(app string) []byte { return []byte(`{"kind":"session.header","app_id":"` + app + `"}` + "\n") }
	for p, app := range map[string]string{
		filepath.Join(sessions, "top.jsonl"):             "inside",
		filepath.Join(sessions, "sub", "low.jsonl"):      "inside",
		filepath.Join(outside, "top.jsonl"):              "OUTSIDE-CANARY",
		filepath.Join(outside, "OUTSIDE-CANARY-x.jsonl"): "OUTSIDE-CANARY",
		filepath.Join(outside, "low.jsonl"):              "OUTSIDE-CANARY",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, header(app), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sessions, outside
}

// relink replaces p with a symbolic link to target.
func relink(t *testing.T, p, target string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// TestSessionsReadThroughTheirRoot: trace ls listed the sessions
// directory, then read each trace's app id by its path, and trace show
// opened a trace found by id by its path: a trace (or a directory above
// it) swapped for a symbolic link leading out between the listing and the
// read had the file outside read, its app id printed as the trace's. The
// read now goes through the sessions directory's root: the app id is
// blank and the open refused, the same whether the link's target exists.
func TestSessionsReadThroughTheirRoot(t *testing.T) {
	for _, swap := range []string{"top.jsonl", "sub"} {
		for _, present := range []bool{true, false} {
			sessions, outside := swapFixture(t)
			s, err := OpenSessions(sessions)
			if err != nil {
				t.Fatal(err)
			}
			list, err := s.List(nil)
			if err != nil || len(list) != 2 {
				t.Fatalf("listed %+v: %v", list, err)
			}
			target := outside
			if swap == "top.jsonl" {
				target = filepath.Join(outside, "top.jsonl")
			}
			if !present {
				target += "-absent"
			}
			relink(t, filepath.Join(sessions, swap), target)
			for _, tf := range list {
				if !strings.HasPrefix(tf.ID, strings.TrimSuffix(swap, ".jsonl")) && !(swap == "sub" && tf.ID == "low") {
					continue
				}
				if app := s.PeekAppID(tf); app != "" {
					t.Errorf("%s swapped for a link out (target present %v): app id %q read through it", swap, present, app)
				}
				f, err := s.Open(tf)
				if err == nil {
					f.Close()
				}
				if !errors.Is(err, safefile.ErrOutsideRoot) || !strings.Contains(err.Error(), tf.Path) || strings.Contains(err.Error(), "absent") {
					t.Errorf("%s swapped for a link out (target present %v): open: %v", swap, present, err)
				}
			}
			s.Close()
		}
	}
}

// TestSessionsWalkRefusesADirectorySwappedOut: a directory below the
// sessions directory swapped for a link leading out after its parent was
// read (as the walk reached it) was listed where the link led: the names,
// sizes and times of the traces outside. It is now skipped, the same
// whether the link's target exists or not.
func TestSessionsWalkRefusesADirectorySwappedOut(t *testing.T) {
	for _, present := range []bool{true, false} {
		sessions, outside := swapFixture(t)
		s, err := OpenSessions(sessions)
		if err != nil {
			t.Fatal(err)
		}
		target := outside
		if !present {
			target += "-absent"
		}
		s.beforeDir = func(rel string) {
			if rel == "sub" {
				relink(t, filepath.Join(sessions, "sub"), target)
			}
		}
		list, err := s.List(nil)
		s.Close()
		if err != nil || len(list) != 1 || list[0].ID != "top" {
			t.Fatalf("target present %v: listed %+v: %v", present, list, err)
		}
	}
}
