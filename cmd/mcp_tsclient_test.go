package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/storytest"
	"kitsoki/internal/testing/tsmcp"
)

// TestMCPServeWithTypeScriptSDKClient: the official MCP TypeScript SDK
// client (a standard client nobody here wrote) spawns `kitsoki mcp serve`
// on a story whose schemas reference each other across two files, lists
// every tool, calls each one and reads structuredContent. With the raw
// files published, listTools throws "can't resolve reference".
func TestMCPServeWithTypeScriptSDKClient(t *testing.T) {
	t.Parallel() // only its own subprocesses, servers and temp dirs
	if testing.Short() {
		t.Skip("builds the kitsoki binary and runs node")
	}
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": mcpstory.App("tsclient",
			mcpstory.Call{Alias: "agent.remote", Endpoint: mcpUpstream(t), Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/verdict.json"},
			mcpstory.Call{Alias: "agent.other", Endpoint: mcpUpstream(t), Host: "host.agent.extract", Prompt: "pull", Schema: "schemas/nested/pick.json"},
			mcpstory.Call{Alias: "agent.third", Endpoint: mcpUpstream(t), Host: "host.agent.decide", Prompt: "any", Schema: "schemas/untyped.json"}),
		"story/schemas/verdict.json":   `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["decision"],"properties":{"decision":{"$ref":"common.json#/$defs/decision"},"seen":{"$ref":"common.json#text"}}}`,
		"story/schemas/common.json":    `{"$defs":{"decision":{"enum":["approve","reject"]},"text":{"$anchor":"text","$ref":"defs/text.json"}}}`,
		"story/schemas/defs/text.json": `{"type":"string","minLength":1}`,
		// No "type":"object" at the root: MCP forbids it as an outputSchema,
		// and one such tool would make the SDK reject the whole list.
		"story/schemas/untyped.json":     `{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"verdict.json"}`,
		"story/schemas/nested/pick.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"decision":{"$ref":"../common.json#/$defs/decision"},"seen":{"$ref":"../verdict.json#/properties/seen"}},"required":["decision"]}`,
	})
	bin := buildKitsoki(t)
	out := tsmcp.Run(t, tsmcp.Plan{
		Command: bin,
		Args:    []string{"mcp", "serve", filepath.Join(root, "story"), "--trace", filepath.Join(t.TempDir(), "t.jsonl")},
		Calls: []tsmcp.Call{
			{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "ship it?"}},
			{Name: "kitsoki_agent_other_extract", Arguments: map[string]any{"prompt": "which?"}},
			{Name: "kitsoki_agent_third_decide", Arguments: map[string]any{"prompt": "any?"}},
		},
	})
	var names []string
	for _, tl := range out.Tools {
		names = append(names, tl.Name)
		raw, _ := json.Marshal(tl.OutputSchema)
		if strings.Contains(string(raw), "common.json#") || strings.Contains(string(raw), `"../`) {
			t.Errorf("%s: outputSchema still holds a file reference: %s", tl.Name, raw)
		}
	}
	if strings.Join(names, ",") != "kitsoki_agent_other_extract,kitsoki_agent_remote_decide,kitsoki_agent_third_decide" {
		t.Fatalf("tools = %v", names)
	}
	for _, tl := range out.Tools {
		if tl.Name == "kitsoki_agent_third_decide" && tl.OutputSchema != nil {
			t.Errorf("an outputSchema without type object was published: %v", tl.OutputSchema)
		}
	}
	if len(out.Results) != 3 {
		t.Fatalf("results = %+v", out.Results)
	}
	for i, prompt := range []string{"ship it?", "which?", "any?"} {
		r := out.Results[i]
		if r.Error != "" || r.Result.IsError {
			t.Fatalf("%s: %s %+v", r.Name, r.Error, r.Result.Content)
		}
		var sc map[string]any
		if err := json.Unmarshal(r.Result.StructuredContent, &sc); err != nil || sc["decision"] != "approve" || sc["seen"] != prompt {
			t.Fatalf("%s: structuredContent = %s (%v)", r.Name, r.Result.StructuredContent, err)
		}
	}
}
