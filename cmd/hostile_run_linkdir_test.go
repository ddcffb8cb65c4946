package cmd

import (
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
