package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose prompts/ directory is a symlink to a directory
// outside it: kitsoki run rendered the outside prompts/q.md and wrote it
// into the trace's agent.call.start, as prompts/ is a prompt root of its
// own and its resolution was taken as inside. Now the call is refused
// naming the file, and neither the output nor the trace holds a byte of it.
func TestHostileRunPromptsDirLinkedOut(t *testing.T) {
	dir := hostileRunDir(t, "", "fine")
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "q.md"), []byte("TOPSECRET-LINKDIR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "s", "prompts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "s", "prompts")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := hostile(t, dir, "run", "s", "--cassette", "c.yaml", "--trace", "t.jsonl")
	if code != exitFinding {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out+errOut, "outside the story's roots") {
		t.Errorf("the refusal is not named:\n%s%s", out, errOut)
	}
	tr, _ := os.ReadFile(filepath.Join(dir, "t.jsonl"))
	if strings.Contains(out+errOut+string(tr), "TOPSECRET") {
		t.Fatalf("the outside prompt reached the output or the trace:\n%s%s\n%s", out, errOut, tr)
	}
}

// validate tells nothing of what lies behind a prompts/ directory that
// links out: prompts/there.md (present outside) and prompts/nope.md
// (absent) get the same finding, the file's name aside. Before, the
// absent one passed, so a stranger's pull request learned from CI which
// files exist on the machine.
func TestHostileValidatePromptsDirLinkedOutTellsNothing(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "there.md"), []byte("TOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{"there.md", "nope.md"}
	dirs := []string{hostileRunDir(t, "", "fine"), hostileRunDir(t, "", "fine")} // before hostile's chdir
	var got []string
	for i, name := range names {
		dir := dirs[i]
		app := filepath.Join(dir, "s", "app.yaml")
		b, err := os.ReadFile(app)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(app, []byte(strings.Replace(string(b), "prompts/q.md", "prompts/"+name, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(filepath.Join(dir, "s", "prompts")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "s", "prompts")); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := hostile(t, dir, "validate", "s")
		text := strings.ReplaceAll(strings.ReplaceAll(out+errOut, dir, "DIR"), name, "NAME")
		got = append(got, fmt.Sprintf("exit %d\n%s", code, text))
	}
	if got[0] != got[1] {
		t.Fatalf("validate differs with what exists outside:\npresent: %s\nabsent:  %s", got[0], got[1])
	}
	if !strings.Contains(got[0], "outside the story's roots") {
		t.Fatalf("not refused:\n%s", got[0])
	}
}
