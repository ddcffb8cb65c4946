package trace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/testing/storytest"
)

// --trace-out inside the project whose directory became a link out of it
// after kitsoki's check before the run: the sidecars are copied through
// the project root, so the copy is refused and neither the agent-prompts
// folder nor a prompt lands where the link leads.
func TestCopySidecarsNeverThroughALinkOut(t *testing.T) {
	src := filepath.Join(t.TempDir(), "run.jsonl")
	storytest.WriteFile(t, filepath.Join(filepath.Dir(src), promptsDir, "p1.txt"), "prompt")
	data := []byte(`{"prompt_ref":"agent-prompts/p1.txt"}` + "\n")
	storytest.WriteFile(t, src, string(data))
	project, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(project, "out")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	err := CopySidecars(src, filepath.Join(project, "out", "t.jsonl"), project, data, 1<<20)
	if !errors.Is(err, atomicfile.ErrLinkOut) {
		t.Errorf("CopySidecars through out/: %v; want ErrLinkOut", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("%d entries made outside the project", len(ents))
	}
	// inside the project, with no link, the prompt is copied
	dst := filepath.Join(project, "in", "t.jsonl")
	if err := CopySidecars(src, dst, project, data, 1<<20); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "in", promptsDir, "p1.txt")); string(b) != "prompt" {
		t.Errorf("copied prompt %q", b)
	}
}
