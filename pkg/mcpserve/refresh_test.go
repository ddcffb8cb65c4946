package mcpserve

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
)

// With no watcher (--watch-interval 0), a tool disabled and then
// re-enabled in the profile is listed and callable again: every tools/list
// and tools/call re-checks the files first.
func TestReEnabledToolWithoutWatcher(t *testing.T) {
	root, dir := writeStory(t, storyYAML(upstream(t)))
	prof := filepath.Join(root, ".kitsoki", "plugins.yaml")
	storytest.WriteFile(t, prof, "disable: [agent.remote]\n")
	s := newServer(t, dir)
	cs := connectPipe(t, s, nil)
	if got := toolNames(t, cs); len(got) != 0 {
		t.Fatalf("disabled alias listed: %v", got)
	}
	storytest.WriteFile(t, prof, "disable: []\n")
	if got := toolNames(t, cs); !slices.Contains(got, "kitsoki_agent_remote_decide") {
		t.Fatalf("re-enabled tool not listed: %v", got)
	}
	storytest.WriteFile(t, prof, "disable: [agent.remote]\n")
	_ = toolNames(t, cs)
	storytest.WriteFile(t, prof, "")
	// Called straight away, without listing first.
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "p"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError {
		t.Fatalf("re-enabled tool: %s", callText(r))
	}
}
