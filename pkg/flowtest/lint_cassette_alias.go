package flowtest

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
)

// aliasEpisodes warns at each episode of the fixture's host_cassette
// whose match.handler names an agent alias (agent.<name>): an agent call
// dispatches as host.agent.<verb>, so such an episode answers no call of
// a fixture on either engine, and strict_cassette_coverage lists it as
// never played (conformance cassette-alias-episode-unplayed). A
// cassette several fixtures name is warned at once.
func (l *fixtureLint) aliasEpisodes() {
	fx := l.fx
	if fx.HostCassette == "" || l.aliasWarned[fx.rel(fx.HostCassette)] {
		return
	}
	name := fx.rel(fx.HostCassette)
	if l.aliasWarned == nil {
		l.aliasWarned = map[string]bool{}
	}
	l.aliasWarned[name] = true
	root := namedRoot(l.root, fx.File)
	full, err := resolveNamed(root, fx.File, "host_cassette", fx.HostCassette)
	if err != nil {
		return // ruleMissingFile or ruleOutsideRoot says so
	}
	r := safefile.NewRoot(root)
	defer r.Close()
	data, err := r.ReadFile(full, safefile.Cassette)
	if err != nil {
		return
	}
	for _, h := range aliasHandlers(data) {
		l.warn(Pos{File: name, Line: h.Line, Col: h.Column}, ruleCassetteAlias,
			"match.handler %q names an agent alias: a fixture's agent calls dispatch as host.agent.<verb>, so this episode answers none of them (here and upstream), and the call fails with no handler unless an episode names host.agent.<verb>; name that handler, or replay the alias with kitsoki run --cassette", h.Value)
	}
}

// aliasHandlers are the match.handler scalars of a cassette's episodes
// that name an agent alias; none when it does not parse (the run says so).
func aliasHandlers(data []byte) []*yaml.Node {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var out []*yaml.Node
	for _, ep := range nodeAt(nodeAt(doc.Content[0]), "episodes").Content {
		h := nodeAt(nodeAt(ep, "match"), "handler")
		if h.Kind == yaml.ScalarNode && strings.HasPrefix(h.Value, "agent.") {
			out = append(out, h)
		}
	}
	return out
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
