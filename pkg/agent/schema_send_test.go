package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/schema"
)

// TestDynamicRefSchemaSentAndEnforced: a schema whose $dynamicRef spans two
// files under schemas/ reaches the plugin as one document that a plain
// JSON Schema library compiles without loading anything and reads with the
// same meaning, and kitsoki enforces that meaning on the answer.
func TestDynamicRefSchemaSentAndEnforced(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	fx.WriteSchema("tree.json", `{"$dynamicAnchor":"node","type":"object","properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}}}`)
	strict := fx.WriteSchema("strict.json", `{"$dynamicAnchor":"node","$ref":"tree.json","unevaluatedProperties":false}`)
	var sent json.RawMessage
	answer := ""
	if err := fx.Registry.RegisterInProcess("agent.tree", agent.AgentFunc(func(_ context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		sent = req.Schema
		return &agent.AskResponse{Submission: json.RawMessage(answer)}, nil
	})); err != nil {
		t.Fatal(err)
	}
	call := agent.Call{Alias: "agent.tree", Verb: "decide", SchemaPath: strict}

	answer = `{"children":[{"data":1,"children":[]}]}`
	if _, err := fx.Registry.Dispatch(context.Background(), call); err != nil {
		t.Fatalf("a valid tree: %v", err)
	}
	want, err := schema.NewCompiler(fx.Dir).Compile(strict)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sent, want.Bundled) || bytes.Equal(want.Bundled, want.Raw) {
		t.Fatalf("the plugin got %s\nwant the bundle %s", sent, want.Bundled)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{}) // a loader for no scheme at all
	if err := c.AddResource("urn:plugin", doc); err != nil {
		t.Fatal(err)
	}
	got, err := c.Compile("urn:plugin")
	if err != nil {
		t.Fatalf("the plugin cannot compile what it got: %v", err)
	}
	var deep any
	_ = json.Unmarshal([]byte(`{"children":[{"daat":1}]}`), &deep)
	if got.Validate(deep) == nil {
		t.Fatal("for the plugin, the extended tree must refuse an unknown key deep down")
	}

	answer = `{"children":[{"daat":1}]}`
	if _, err := fx.Registry.Dispatch(context.Background(), call); agent.KindOf(err) != agent.KindSchemaInvalid {
		t.Fatalf("an unknown key deep down must be schema_invalid, got %v", err)
	}
}
