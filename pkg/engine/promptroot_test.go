package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// At run time a prompt file outside the story's roots is never read (the
// story may have been loaded without validate, or a path templated): a
// prompt_path there, or a prompt: written inside the roots that a link
// leads out of, is refused; a prompt: written outside them is inline text.
func TestPromptOutsideTheRootsRefusedAtRunTime(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "passwd")
	if err := os.WriteFile(secret, []byte("root:x:SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts", "ok.md"), []byte("fine {{ x }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "prompts", "link.md")); err != nil {
		t.Fatal(err)
	}
	st := &story.Story{Dir: dir}
	p := NewPromptRenderer(st)
	for _, path := range []string{secret, "../" + filepath.Base(outside) + "/passwd", "prompts/link.md"} {
		if path[0] == '.' {
			// make ../<outside> resolve: outside and dir share a parent
			// only by chance; use the relative path between them.
			rel, _ := filepath.Rel(dir, secret)
			path = rel
		}
		for _, key := range []string{"prompt_path", "prompt"} {
			rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{key: path}, nil, CallEnv{})
			if rc != nil && strings.Contains(rc.Prompt, "SECRET") {
				t.Fatalf("%s: the outside file reached the prompt", path)
			}
			if key == "prompt" && !strings.HasPrefix(path, "prompts/") {
				// written outside the roots: inline text, the file never looked at
				if err != nil || rc.Prompt != path {
					t.Fatalf("prompt: %s gave %+v, %v; want the text as written", path, rc, err)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), "outside the story's roots") {
				t.Fatalf("%s: %s accepted: %v", key, path, err)
			}
		}
	}
	rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt_path": "prompts/ok.md", "args": map[string]any{"x": "y"}}, nil, CallEnv{})
	if err != nil || !strings.HasPrefix(rc.Prompt, "fine") {
		t.Fatalf("inside: %+v %v", rc, err)
	}
}
