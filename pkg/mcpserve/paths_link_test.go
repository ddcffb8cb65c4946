package mcpserve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/storytest"
)

// A call site whose schema: is a symlink the repository planted, leading to
// a schema outside the project, is not served: mcp serve refuses the story,
// naming the link, never the file it leads to or a byte of it (so no tool
// offers it as an output schema).
func TestSchemaLinkOutsideNotServed(t *testing.T) {
	ep := upstream(t)
	root, dir := writeStory(t, mcpstory.App("mcpstory",
		mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/verdict.json"},
		mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/leak.json"},
	))
	secret := filepath.Join(root, "secret.json")
	storytest.WriteFile(t, secret, `{"type":"object","required":["decision"],"properties":{"decision":{"description":"hunter2"}}}`)
	if err := os.Symlink(secret, filepath.Join(dir, "schemas", "leak.json")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{StoryPath: dir})
	if err == nil {
		s.Close()
		t.Fatal("served a story whose schema leads out of the project")
	}
	if msg := err.Error(); !strings.Contains(msg, "schemas/leak.json") || strings.Contains(msg, "hunter2") || strings.Contains(msg, secret) {
		t.Fatalf("want a refusal naming the link, quoting nothing of (or where) it leads: %v", msg)
	}
}
