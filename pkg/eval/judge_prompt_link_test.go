package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJudgePromptOutsideTellsNothingOfItsTarget: a dataset's
// comparator.prompt that leaves the checkout (../, absolute) or goes
// through a symlink leading out is refused with the same error whether
// the outside file exists, is absent or is a directory, quoting nothing
// of it; a missing prompt inside is still "not found".
func TestJudgePromptOutsideTellsNothingOfItsTarget(t *testing.T) {
	repo, outside := confineTree(t)
	if err := os.WriteFile(filepath.Join(outside, "p.md"), []byte("CANARYeval {{ x }}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(outside, "p.md"), filepath.Join(repo, "prompts", "there.md"))
	symlink(t, filepath.Join(outside, "gone.md"), filepath.Join(repo, "prompts", "gone.md"))
	symlink(t, filepath.Join(outside, "story"), filepath.Join(repo, "prompts", "dir.md"))
	symlink(t, outside, filepath.Join(repo, "linked"))
	st, err := (&StoryLoader{}).Load(filepath.Join(repo, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	said := func(prompt string) string {
		t.Helper()
		_, err := newJudge(nil, st.Story, Comparator{Kind: "judge", Prompt: prompt}, true)
		if err == nil {
			t.Fatalf("prompt %s: no error", prompt)
		}
		msg := err.Error()
		if strings.Contains(msg, "CANARY") {
			t.Errorf("prompt %s: %q quotes the file outside", prompt, msg)
		}
		return strings.ReplaceAll(msg, prompt, "P")
	}
	for _, group := range [][]string{
		{"prompts/there.md", "prompts/gone.md", "prompts/dir.md", "linked/p.md", "linked/gone.md"},
		{"../outside/p.md", "../outside/gone.md", "../outside/story", filepath.Join(outside, "p.md"), filepath.Join(outside, "gone.md")},
	} {
		first := said(group[0])
		if !strings.Contains(first, "project root") {
			t.Errorf("prompt %s: %q, want it refused as outside the project root", group[0], first)
		}
		for _, p := range group[1:] {
			if got := said(p); got != first {
				t.Errorf("prompt %s: %q, but %q for %s", p, got, first, group[0])
			}
		}
	}
	if got := said("prompts/missing.md"); !strings.Contains(got, "no such file") {
		t.Errorf("a missing prompt inside: %q", got)
	}
}
