package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTraceLsEmptyAnswerTellsNothingOutside: trace ls answered "no
// traces" by looking at the sessions directory again, by its path, after
// the confined listing: swapped meanwhile for a link leading out, the
// answer told a missing target ("the directory does not exist") from a
// present file or directory. It now answers from the listing's own open:
// the three swaps print the same words as the empty directory listed.
func TestTraceLsEmptyAnswerTellsNothingOutside(t *testing.T) {
	base := t.TempDir()
	outFile, outDir := filepath.Join(base, "outside.txt"), filepath.Join(base, "outside")
	writeFileT(t, outFile, "x")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	lsAt := func(repo string, swapTo string) string {
		t.Helper()
		sess := filepath.Join(repo, ".kitsoki", "sessions")
		listed := func() {
			if swapTo == "" {
				return
			}
			if err := os.Remove(sess); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(swapTo, sess); err != nil {
				t.Fatal(err)
			}
		}
		t.Chdir(repo)
		c := traceCmd(&traceOpts{lsListed: listed})
		var out, errOut bytes.Buffer
		c.SetOut(&out)
		c.SetErr(&errOut)
		c.SetArgs([]string{"ls", "--sessions-dir", sess})
		if err := c.Execute(); err != nil {
			t.Fatalf("trace ls: %v\n%s", err, errOut.String())
		}
		return out.String() + errOut.String()
	}
	newRepo := func() string {
		repo := filepath.Join(t.TempDir(), "repo")
		writeFileT(t, filepath.Join(repo, ".git", "HEAD"), "")
		if err := os.MkdirAll(filepath.Join(repo, ".kitsoki", "sessions"), 0o755); err != nil {
			t.Fatal(err)
		}
		return repo
	}
	repo := newRepo()
	want := lsAt(repo, "")
	if want != "no traces under "+filepath.Join(repo, ".kitsoki", "sessions")+"\n" {
		t.Fatalf("empty sessions directory: %q", want)
	}
	for _, target := range []string{outFile, filepath.Join(base, "absent"), outDir} {
		repo := newRepo()
		got := lsAt(repo, target)
		if fi, err := os.Lstat(filepath.Join(repo, ".kitsoki", "sessions")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the sessions directory was never swapped for the link to %s", target)
		}
		if got != "no traces under "+filepath.Join(repo, ".kitsoki", "sessions")+"\n" {
			t.Errorf("sessions directory swapped for a link to %s after the listing: %q, want the empty directory's answer", target, got)
		}
	}
	// A directory missing when opened is still said to be missing.
	repo = filepath.Join(t.TempDir(), "repo")
	writeFileT(t, filepath.Join(repo, ".git", "HEAD"), "")
	if got := lsAt(repo, ""); !bytes.Contains([]byte(got), []byte("the directory does not exist")) {
		t.Errorf("missing sessions directory: %q", got)
	}
}
