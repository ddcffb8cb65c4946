package flowtest

import (
	"go.yaml.in/yaml/v3"
)

// agentResponses warns at each episode of the fixture's host_cassette
// (doc, printed as name) whose agent.response: is a mapping or a list:
// kitsoki reads it as that value's JSON text, the existing engine refuses
// the whole cassette (docs/compat/flowtest.md, "Cassettes:
// response_json:"), so the fixture runs on one engine only.
func (l *fixtureLint) agentResponses(doc *yaml.Node, name string) {
	for _, ep := range listAt(doc, "episodes") {
		r := nodeAt(ep, "agent", "response")
		if r.Kind != yaml.MappingNode && r.Kind != yaml.SequenceNode {
			continue
		}
		l.cassetteWarn(name, r, ruleCassetteAgentResponse,
			"agent.response is a %s: kitsoki replays its JSON text, but the existing engine refuses the whole cassette (cannot unmarshal it into a string) and stops the run; write it as quoted JSON text, such as response: '{\"label\":\"bug\"}'", kindWord(r))
	}
}

// kindWord names a mapping or a list node for a message.
func kindWord(n *yaml.Node) string {
	if n.Kind == yaml.MappingNode {
		return "mapping"
	}
	return "list"
}
