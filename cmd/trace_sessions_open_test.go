package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSessionsRefusesALinkOutItself: the sessions directory is opened
// once, through the project root, so a .kitsoki that is (or was swapped
// for) a link leading out is refused by the open itself, worded as trace
// ls words it, whether the link's target exists or not, and shell
// completion offers nothing there; an absolute link that stays inside the
// project is opened.
func TestOpenSessionsRefusesALinkOutItself(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	writeFileT(t, filepath.Join(repo, ".git", "HEAD"), "")
	writeFileT(t, filepath.Join(base, "home", ".kitsoki", "sessions", "x.jsonl"), "{}\n")
	writeFileT(t, filepath.Join(repo, "kept", "sessions", "y.jsonl"), "{}\n")
	t.Chdir(repo)
	var said []string
	for _, target := range []string{filepath.Join(base, "home", ".kitsoki"), filepath.Join(base, "absent")} {
		os.Remove(filepath.Join(repo, ".kitsoki"))
		if err := os.Symlink(target, filepath.Join(repo, ".kitsoki")); err != nil {
			t.Fatal(err)
		}
		s, err := openSessions(".kitsoki/sessions")
		if err == nil {
			s.Close()
			t.Fatalf("link to %s: opened", target)
		}
		if !strings.Contains(err.Error(), ".kitsoki/sessions: the sessions directory goes through a symlink leading out of the project root") {
			t.Fatalf("link to %s: %v", target, err)
		}
		said = append(said, err.Error())
		// shell completion lists the ids there the same way
		if _, out, _ := runCmd(t, "__complete", "trace", "show", ""); strings.Contains(out, "x\n") {
			t.Fatalf("link to %s: completion offers a trace outside:\n%s", target, out)
		}
	}
	if said[0] != said[1] {
		t.Fatalf("the refusal tells whether the target exists:\n%s\n%s", said[0], said[1])
	}
	os.Remove(filepath.Join(repo, ".kitsoki"))
	if err := os.Symlink(filepath.Join(repo, "kept"), filepath.Join(repo, ".kitsoki")); err != nil {
		t.Fatal(err)
	}
	s, err := openSessions(".kitsoki/sessions")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if list, err := s.List(nil); err != nil || len(list) != 1 || list[0].ID != "y" {
		t.Fatalf("an absolute link inside the project: %+v %v", list, err)
	}
	if _, out, _ := runCmd(t, "__complete", "trace", "show", ""); !strings.Contains(out, "y\n") {
		t.Fatalf("completion does not offer the trace inside:\n%s", out)
	}
}
