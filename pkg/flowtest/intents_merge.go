package flowtest

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// Merge keys (<<:) in a `test intents` document, read as upstream's
// decoder reads them, the rules of a flow fixture (parse_merge.go): the
// document, its defaults:, each fixture, its intent: and its
// expect_failure: are records (a key both merged and written is refused,
// a list cannot be merged); slots: and every value below are maps (keys
// in file order, a later one wins, merged or written). yaml.v3 lets a
// written key win over a merged one wherever it stands and merges a list
// into a record, so the merges are expanded here, in place, before the
// document is decoded.

// intentRecords names, per record of an intents document, the keys that
// hold records in turn ("" for the document itself); fixtures: holds a
// list of them.
var intentRecords = map[string][]string{
	"":        {"defaults", "fixtures"},
	"fixture": {"intent", "expect_failure"},
}

// expandIntentMerges expands root's merge keys; the first refusal is the
// error, at the file's line and column.
func expandIntentMerges(file string, pc piece, root *yaml.Node) error {
	p := &parser{file: file, lineOff: pc.line, colOff: pc.colOff}
	p.mergeRecord(root, "document", "")
	if len(p.ds) == 0 {
		return nil
	}
	d := p.ds[0]
	return refuseIntents(Pos{File: file, Line: d.Line, Col: d.Col}, "intent fixture: %s", d.Message)
}

// mergeRecord expands record n (of kind, a key of intentRecords, or none)
// and the values below it.
func (p *parser) mergeRecord(n *yaml.Node, where, kind string) {
	if n == nil || n.Kind != yaml.MappingNode {
		p.mergeValues(n, where, true)
		return
	}
	pairs := p.record(n, where)
	setPairs(n, pairs)
	kids, isRecord := intentRecords[kind]
	for _, q := range pairs {
		at := dotted(where, q.k.Value)
		if kind == "" {
			at = q.k.Value // the document's keys name themselves
		}
		switch {
		case !isRecord || !slices.Contains(kids, q.k.Value):
			p.mergeValues(q.v, at, true)
		case q.k.Value == "fixtures" && q.v.Kind == yaml.SequenceNode:
			for i, f := range q.v.Content {
				p.mergeRecord(f, fmt.Sprintf("%s[%d]", at, i), "fixture")
			}
		default:
			p.mergeRecord(q.v, at, "leaf") // a record whose values are maps
		}
	}
}

// mergeValues expands the merge keys of a value as a map's: at its top
// (top) two mappings of a merged list sharing a key are refused, below
// they are taken in order as well.
func (p *parser) mergeValues(n *yaml.Node, where string, top bool) {
	switch {
	case n == nil:
	case n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			p.mergeValues(c, where, false)
		}
	case n.Kind == yaml.MappingNode:
		p.mergeListRepeats = !top
		pairs := p.entries(n, where)
		p.mergeListRepeats = false
		setPairs(n, laterWins(pairs))
		for _, q := range pairs {
			p.mergeValues(q.v, dotted(where, q.k.Value), false)
		}
	}
}

// laterWins keeps the last pair of each key, in file order.
func laterWins(pairs []pair) []pair {
	last := map[string]int{}
	for i, q := range pairs {
		key, _ := decodedText(q.k)
		last[key] = i
	}
	out := make([]pair, 0, len(last))
	for i, q := range pairs {
		if key, _ := decodedText(q.k); last[key] == i {
			out = append(out, q)
		}
	}
	return out
}

// setPairs makes pairs mapping n's content.
func setPairs(n *yaml.Node, pairs []pair) {
	content := make([]*yaml.Node, 0, 2*len(pairs))
	for _, q := range pairs {
		content = append(content, q.k, q.v)
	}
	n.Content = content
}
