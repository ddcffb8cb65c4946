package flowtest

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// aliasEpisodes warns at each episode of the fixture's host_cassette
// (doc, printed as name) whose match.handler names an agent alias
// (agent.<name>): an agent call dispatches as host.agent.<verb>, so such
// an episode answers no call of a fixture on either engine, and
// strict_cassette_coverage lists it as never played (conformance
// cassette-alias-episode-unplayed).
func (l *fixtureLint) aliasEpisodes(doc *yaml.Node, name string) {
	for _, ep := range listAt(doc, "episodes") {
		h := nodeAt(ep, "match", "handler")
		if h.Kind == yaml.ScalarNode && strings.HasPrefix(h.Value, "agent.") {
			l.cassetteWarn(name, h, ruleCassetteAlias,
				"match.handler %q names an agent alias: a fixture's agent calls dispatch as host.agent.<verb>, so this episode answers none of them (here and upstream), and the call fails with no handler unless an episode names host.agent.<verb>; name that handler, or replay the alias with kitsoki run --cassette", h.Value)
		}
	}
}
