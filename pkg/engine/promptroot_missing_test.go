package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A prompt path outside the story's roots is refused at run time whether
// or not a file is there. Before, an absent one was taken as inline text
// and sent to the agent while a present one was refused, so a run told a
// story which files exist outside it. Inline text (with spaces) that
// happens to hold "../" still renders as text.
func TestPromptOutsideRefusedWhetherOrNotItExists(t *testing.T) {
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
	var msgs []string
	for _, name := range []string{"there.md", "nope.md"} {
		for _, path := range []string{filepath.Join(rel, name), filepath.Join(outside, name)} {
			rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt": path}, nil, CallEnv{})
			if err == nil {
				t.Fatalf("prompt %s accepted: %+v", path, rc)
			}
			msgs = append(msgs, strings.ReplaceAll(err.Error(), name, "NAME"))
		}
	}
	if msgs[0] != msgs[2] || msgs[1] != msgs[3] {
		t.Fatalf("the refusal differs with what exists:\n%s\n%s\n%s\n%s", msgs[0], msgs[2], msgs[1], msgs[3])
	}
	rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt": "compare " + rel + "/a with the rest"}, nil, CallEnv{})
	if err != nil || !strings.HasPrefix(rc.Prompt, "compare ") {
		t.Fatalf("inline text: %+v %v", rc, err)
	}
}
