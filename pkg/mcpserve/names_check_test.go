package mcpserve

import (
	"strings"
	"testing"

	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// validate and mcp serve agree: the story that New refuses for a tool-name
// collision is the one CheckToolNames warns about, at the alias.
func TestCheckToolNamesAgreesWithServe(t *testing.T) {
	_, dir := writeStory(t, storyYAML("http://127.0.0.1:1/mcp", "agent.re-mote", "agent.re_mote"))
	st, ds := lint.Load(dir, story.Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	got := CheckToolNames(st)
	if len(got) != 1 || got[0].Rule != ruleToolName.ID || got[0].Line == 0 ||
		!strings.Contains(got[0].Message, "agent.re-mote and agent.re_mote both become the MCP tool kitsoki_agent_re_mote_ask") {
		t.Fatalf("diagnostics %v", got)
	}
	if _, err := New(Options{StoryPath: dir}); err == nil || !strings.Contains(err.Error(), "kitsoki_agent_re_mote_ask") {
		t.Fatalf("mcp serve: %v", err)
	}
	_, clean := writeStory(t, storyYAML("http://127.0.0.1:1/mcp", "agent.helper"))
	st, _ = lint.Load(clean, story.Options{})
	if got := CheckToolNames(st); len(got) != 0 {
		t.Fatalf("clean story: %v", got)
	}
}
