package flowtest

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// aliasEpisodes warns at each episode of the fixture's host_cassette
// (doc, printed as name) whose match.handler names an agent alias
// (agent.<name>): an agent call dispatches as host.agent.<verb>, so such
// an episode answers no call of a fixture on either engine, and
// strict_cassette_coverage lists it as never played (conformance
// cassette-alias-episode-unplayed).
func (l *fixtureLint) aliasEpisodes(doc *yaml.Node, name string) {
	for _, ep := range listAt(doc, "episodes") {
		h := nodeAt(nodeAt(ep, "match"), "handler")
		if h.Kind == yaml.ScalarNode && strings.HasPrefix(h.Value, "agent.") {
			l.warn(Pos{File: name, Line: h.Line, Col: h.Column}, ruleCassetteAlias,
				"match.handler %q names an agent alias: a fixture's agent calls dispatch as host.agent.<verb>, so this episode answers none of them (here and upstream), and the call fails with no handler unless an episode names host.agent.<verb>; name that handler, or replay the alias with kitsoki run --cassette", h.Value)
		}
	}
}

// nodeAt is n (aliases followed), or the value of the first of keys in
// it; an empty node where n is no mapping or lacks the key.
func nodeAt(n *yaml.Node, keys ...string) *yaml.Node {
	n = yamlnode.Deref(n)
	if n == nil || (len(keys) > 0 && n.Kind != yaml.MappingNode) {
		return &yaml.Node{}
	}
	if len(keys) == 0 {
		return n
	}
	return nodeAt(yamlnode.Get(n, keys[0]))
}
