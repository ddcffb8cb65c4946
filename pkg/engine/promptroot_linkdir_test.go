package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A story whose prompts/ directory is itself a symlink leading out of the
// story: prompts/secret.md passed every check, as prompts/ is one of the
// loader's roots and a root's own resolution was taken as inside, so the
// outside file became the prompt sent to the plugin and written into the
// trace. A prompts/ link that stays inside the story is still followed.
func TestPromptThroughPromptsDirLinkOutRefused(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("LINKDIR-SECRET {{ x }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "prompts")); err != nil {
		t.Fatal(err)
	}
	p := NewPromptRenderer(&story.Story{Dir: dir})
	for _, key := range []string{"prompt_path", "prompt"} {
		rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{key: "prompts/secret.md"}, nil, CallEnv{})
		if err == nil || !strings.Contains(err.Error(), "outside the story's roots") {
			t.Fatalf("%s: prompts/secret.md through a prompts/ link out accepted: %+v %v", key, rc, err)
		}
		if rc != nil && strings.Contains(rc.Prompt, "LINKDIR-SECRET") {
			t.Fatalf("%s: the outside file reached the prompt", key)
		}
	}

	inside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(inside, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inside, "real", "ok.md"), []byte("fine {{ x }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(inside, "prompts")); err != nil {
		t.Fatal(err)
	}
	p = NewPromptRenderer(&story.Story{Dir: inside})
	rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt_path": "prompts/ok.md", "args": map[string]any{"x": "y"}}, nil, CallEnv{})
	if err != nil || !strings.HasPrefix(rc.Prompt, "fine") {
		t.Fatalf("a prompts/ link inside the story: %+v %v", rc, err)
	}
}
