package agent

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// printedTexts makes each episode's id, response.error and
// response.infra_error, and its agent block's text keys, written as a
// number or a bool, the text upstream's decoder reads there: 1.0 is "1",
// 0x1F "31", True "true", .inf "+Inf" (conformance cassette-scalar-text;
// the agent block's texts reach only the trace, pkg/compose
// TestHostCassetteAgentTexts).
func printedTexts(doc *yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	eps := get(root, "episodes")
	if eps == nil || eps.Kind != yaml.SequenceNode {
		return
	}
	for _, ep := range eps.Content {
		yamlnode.TextAsPrinted(get(ep, "id"))
		resp := get(ep, "response")
		yamlnode.TextAsPrinted(get(resp, "error"))
		yamlnode.TextAsPrinted(get(resp, "infra_error"))
		agent := get(ep, "agent")
		for _, k := range agentTexts {
			yamlnode.TextAsPrinted(get(agent, k))
		}
	}
}

// agentTexts are the agent block's keys upstream reads as text.
var agentTexts = []string{"verb", "agent", "model", "prompt", "system_prompt", "response", "error", "call_id"}

// get is the value of key in the mapping n, nil when n is no mapping.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return yamlnode.Get(n, key)
}
