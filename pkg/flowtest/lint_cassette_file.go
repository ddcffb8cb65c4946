package flowtest

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
)

// cassetteFiles lints the cassettes the fixture names for what both
// engines silently read otherwise than written: a host_cassette's
// episodes naming an agent alias (lint_cassette_alias.go) or a delay
// that is no duration (lint_cassette_delay.go), a starlark_http_cassette's
// loose statuses (lint_cassette_status.go). A cassette several fixtures
// name is linted once.
func (l *fixtureLint) cassetteFiles() {
	if doc, name := l.cassetteOnce("host_cassette", l.fx.HostCassette); doc != nil {
		l.aliasEpisodes(doc, name)
		l.episodeDelays(doc, name)
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
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, ""
	}
	return nodeAt(doc.Content[0]), name
}

// listAt is the items of the list under key in the mapping n (aliases
// followed); none where there is no such list.
func listAt(n *yaml.Node, key string) []*yaml.Node {
	return nodeAt(n, key).Content
}
