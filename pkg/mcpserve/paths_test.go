package mcpserve

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/storytest"
)

// No tool argument names a file kitsoki reads: for every tool the server
// offers, a schema path outside the project (absolute, ../, or a schema
// of the story the call site does not use) is refused before any call is
// dispatched, and the refusal quotes nothing of the file it names.
func TestToolArgumentsNameNoFile(t *testing.T) {
	ep := upstream(t)
	root, dir := writeStory(t, mcpstory.App("mcpstory",
		mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/verdict.json"},
		mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/other.json"},
		mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.ask", Prompt: "hi"},
	))
	storytest.WriteFile(t, filepath.Join(dir, "schemas", "other.json"), verdictSchema)
	secret := filepath.Join(filepath.Dir(root), "secret-"+filepath.Base(root)+".json")
	storytest.WriteFile(t, secret, `{"type":"object","description":"hunter2"}`)
	storytest.WriteFile(t, filepath.Join(dir, "schemas", "unused.json"), `{"description":"hunter2"}`)
	cs := connectPipe(t, newServer(t, dir), nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) == 0 {
		t.Fatal("no tools offered")
	}
	for _, tool := range tools.Tools {
		for _, schema := range []string{secret, "../../" + filepath.Base(secret), "schemas/../../" + filepath.Base(secret), "schemas/unused.json", "/dev/zero"} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.Name, Arguments: map[string]any{"prompt": "p", "schema": schema}})
			if err != nil {
				t.Fatalf("%s with schema %q: %v", tool.Name, schema, err)
			}
			text := ""
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					text += tc.Text
				}
			}
			if !res.IsError || !strings.Contains(text, "invalid input") || strings.Contains(text, "hunter2") {
				t.Fatalf("%s with schema %q: error %v, %q; want an invalid input naming no file content", tool.Name, schema, res.IsError, text)
			}
		}
	}
}
