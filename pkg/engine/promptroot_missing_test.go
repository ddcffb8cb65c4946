package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A prompt path outside the story's roots gets the same answer whether or
// not a file is there, and nothing outside is read. Before, a present one
// was refused and an absent one sent as inline text, so a run told a story
// which files exist outside it. A prompt_path outside is refused; a
// prompt: outside is inline text, as upstream sends one naming no file.
func TestPromptOutsideAnswersTheSameWhetherOrNotItExists(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "there.md"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rel, err := filepath.Rel(dir, outside)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPromptRenderer(&story.Story{Dir: dir})
	var refusals []string
	for _, name := range []string{"there.md", "nope.md"} {
		for _, path := range []string{filepath.Join(rel, name), filepath.Join(outside, name)} {
			rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt": path}, nil, CallEnv{})
			if err != nil || rc.Prompt != path {
				t.Fatalf("prompt: %s gave %+v, %v; want the path sent as inline text", path, rc, err)
			}
			_, err = p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt_path": path}, nil, CallEnv{})
			if err == nil {
				t.Fatalf("prompt_path %s accepted", path)
			}
			refusals = append(refusals, strings.ReplaceAll(err.Error(), name, "NAME"))
		}
	}
	if refusals[0] != refusals[2] || refusals[1] != refusals[3] {
		t.Fatalf("the refusal differs with what exists:\n%s\n%s\n%s\n%s", refusals[0], refusals[2], refusals[1], refusals[3])
	}
	rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt": "compare " + rel + "/a with the rest"}, nil, CallEnv{})
	if err != nil || !strings.HasPrefix(rc.Prompt, "compare ") {
		t.Fatalf("inline text: %+v %v", rc, err)
	}
}
