package mcpserve

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/schema"
)

// FuzzCheckInput: a tool call's arguments, the one part of an MCP request
// the server reads itself, are accepted by checkInput exactly when the
// input schema the tool publishes (inputSchema, through pkg/schema) accepts
// them, for a tool with one call-site schema and for one with two; an
// accepted call has a non-empty prompt and one of the tool's schemas.
// Arguments refused for their decoded size, or for a number past float64
// (which JSON Schema cannot say), are left out of the comparison.
func FuzzCheckInput(f *testing.F) {
	for _, s := range []string{
		`{"prompt":"x"}`, `{"prompt":"x","args":{"a":[1,{}]}}`, `{"prompt":""}`, `{"prompt":1}`,
		`{"prompt":"x","args":null}`, `{"prompt":"x","args":[]}`, `{"prompt":"x","schema":"schemas/b.json"}`,
		`{"prompt":"x","schema":"schemas/c.json"}`, `{"prompt":"x","extra":1}`, `null`, `[]`, ``, `{"prompt":"\ud800"}`,
		`{"prompt":"a","prompt":""}`, `{"Prompt":"x"}`, `{"prompt":"x"} {}`, `{"prompt":"x","args":{"a":1e400}}`,
	} {
		f.Add([]byte(s))
	}
	tools := []*Tool{
		{Name: "kitsoki_a_ask", Alias: "agent.a", Verb: "ask", Schemas: []string{"schemas/a.json"}},
		{Name: "kitsoki_a_decide", Alias: "agent.a", Verb: "decide", Schemas: []string{"schemas/a.json", "schemas/b.json"}},
	}
	published := make([]*schema.Schema, len(tools))
	for i, tool := range tools {
		raw, err := json.Marshal(tool.inputSchema())
		if err != nil {
			f.Fatal(err)
		}
		if published[i], err = schema.CompileBytes(tool.Name+".json", raw); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, tool := range tools {
			prompt, _, schemaPath, err := tool.checkInput(data, 0)
			if err != nil && (strings.Contains(err.Error(), "once read") || strings.Contains(err.Error(), "out of range of a 64-bit float")) {
				continue
			}
			raw := data
			if len(raw) == 0 {
				raw = []byte("{}")
			}
			ve := published[i].ValidateJSON(raw)
			if (err == nil) != (ve == nil) {
				t.Fatalf("%s, arguments %q: checkInput says %v, the published input schema says %v", tool.Name, data, err, ve)
			}
			if err == nil && (prompt == "" || !slices.Contains(tool.Schemas, schemaPath)) {
				t.Fatalf("%s accepted %q with prompt %q and schema %q", tool.Name, data, prompt, schemaPath)
			}
		}
	})
}
