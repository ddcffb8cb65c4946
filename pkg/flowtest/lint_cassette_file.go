package flowtest

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// cassetteFiles lints the cassettes the fixture names for what both
// engines silently read otherwise than written: a host_cassette's
// episodes naming an agent alias (lint_cassette_alias.go) or a delay
// that is no duration (lint_cassette_delay.go), an agent.response only
// kitsoki reads (lint_cassette_response.go), a starlark_http_cassette's
// loose statuses (lint_cassette_status.go). A cassette several fixtures
// name is linted once.
func (l *fixtureLint) cassetteFiles() {
	if doc, name := l.cassetteOnce("host_cassette", l.fx.HostCassette); doc != nil {
		l.aliasEpisodes(doc, name)
		l.episodeDelays(doc, name)
		l.agentResponses(doc, name)
	}
	if doc, name := l.cassetteOnce("starlark_http_cassette", l.fx.StarlarkHTTPCassette); doc != nil {
		l.exchangeStatuses(doc, name)
	}
}

// cassetteOnce is the top mapping of the cassette the fixture names under
// key, and its path as messages print it, the first time a fixture names
// it; nil after that, and where it is not named, cannot be read (the run
// or flow-missing-file says so) or does not parse (the run says so).
func (l *fixtureLint) cassetteOnce(key, p string) (*yaml.Node, string) {
	fx := l.fx
	if p == "" || l.cassetteLinted[fx.rel(p)] {
		return nil, ""
	}
	name := fx.rel(p)
	if l.cassetteLinted == nil {
		l.cassetteLinted = map[string]bool{}
	}
	l.cassetteLinted[name] = true
	return l.cassetteDoc(key, p)
}

// cassetteDoc is the top mapping of the cassette the fixture names under
// key, and its path as messages print it; nil where it cannot be read or
// does not parse.
func (l *fixtureLint) cassetteDoc(key, p string) (*yaml.Node, string) {
	fx := l.fx
	name := fx.rel(p)
	root := namedRoot(l.root, fx.File)
	full, err := resolveNamed(root, fx.File, key, p)
	if err != nil {
		return nil, "" // ruleMissingFile or ruleOutsideRoot says so
	}
	r := safefile.NewRoot(root)
	defer r.Close()
	data, err := r.ReadFile(full, safefile.Cassette)
	if err != nil {
		return nil, ""
	}
	// as the loaders read it: within yamlnode.MaxTreeNodes (a cassette may
	// be 256 MiB, which yaml.v3 alone holds whole)
	var doc yaml.Node
	if yamlnode.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, ""
	}
	return nodeAt(doc.Content[0]), name
}

// cassetteWarn warns at node n of the cassette printed as name, once
// however many episodes or exchanges merge or alias it in.
func (l *fixtureLint) cassetteWarn(name string, n *yaml.Node, rule *diag.Rule, format string, a ...any) {
	at := Pos{File: name, Line: n.Line, Col: n.Column}
	if l.cassetteSeen[at] {
		return
	}
	if l.cassetteSeen == nil {
		l.cassetteSeen = map[Pos]bool{}
	}
	l.cassetteSeen[at] = true
	l.warn(at, rule, format, a...)
}

// listAt is the items of the list under key in the mapping n (aliases
// followed); none where there is no such list.
func listAt(n *yaml.Node, key string) []*yaml.Node {
	return nodeAt(n, key).Content
}

// nodeAt is n (aliases followed), or what the path keys leads to in it,
// each key's value written there or merged in; an empty node where a step
// is no mapping or lacks its key.
func nodeAt(n *yaml.Node, keys ...string) *yaml.Node {
	n = yamlnode.Deref(n)
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return &yaml.Node{}
		}
		n = yamlnode.Deref(mergedGet(n, k))
	}
	if n == nil {
		return &yaml.Node{}
	}
	return n
}

// mergedGet is the value of key in the mapping n as a decoder reads it:
// written in n, else merged in by its << key (a mapping, or a list of
// them, the first that has it); nil where none has it.
func mergedGet(n *yaml.Node, key string) *yaml.Node {
	if v := yamlnode.Get(n, key); v != nil {
		return v
	}
	m := yamlnode.Deref(yamlnode.Get(n, "<<"))
	if m == nil {
		return nil
	}
	from := []*yaml.Node{m}
	if m.Kind == yaml.SequenceNode {
		from = m.Content
	}
	for _, src := range from {
		if src = yamlnode.Deref(src); src != nil && src.Kind == yaml.MappingNode {
			if v := mergedGet(src, key); v != nil {
				return v
			}
		}
	}
	return nil
}
