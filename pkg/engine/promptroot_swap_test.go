package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// TestPromptSwappedForALinkOutTellsNothingOfItsTarget: a prompt file
// inside the story, swapped for a symbolic link leading out after confine
// let it through (a job or hook running beside the story), was stat'ed by
// its path: a link to a file failed the call with the outside refusal, one
// to a directory or a missing path sent the name as inline text (prompt:)
// or said it names no file (prompt_path:). Each is now confine's refusal,
// the same whatever lies outside, and nothing outside is read.
func TestPromptSwappedForALinkOutTellsNothingOfItsTarget(t *testing.T) {
	outside, targets := storytest.LinkOutTargets(t)
	got := storytest.SameForEveryTarget(t, outside, targets, func(target string) string {
		dir := t.TempDir()
		prompt := filepath.Join(dir, "prompts", "p.md")
		if err := os.MkdirAll(filepath.Dir(prompt), 0o755); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, key := range []string{"prompt", "prompt_path"} {
			if err := os.Remove(prompt); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.WriteFile(prompt, []byte("inside"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := NewPromptRenderer(&story.Story{Dir: dir})
			p.beforeStat = func(string) {
				if err := os.Remove(prompt); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, prompt); err != nil {
					t.Fatal(err)
				}
			}
			rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{key: "prompts/p.md"}, nil, CallEnv{})
			if err == nil {
				t.Fatalf("%s swapped for a link to %s: sent %q", key, target, rc.Prompt)
			}
			out = append(out, strings.ReplaceAll(err.Error(), dir, "DIR"))
		}
		return strings.Join(out, "\n")
	})
	if !strings.Contains(got, "outside the story's roots") {
		t.Errorf("want confine's refusal, got:\n%s", got)
	}
}
