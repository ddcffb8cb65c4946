package flowtest

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// Merge keys (`<<: *anchor`) in a fixture, read as upstream's decoder
// (goccy/go-yaml) reads them (docs/compat/flow-format.md "Merge keys"):
//
//   - into a fixture, a turn, an intent, a stub or any other record of
//     named keys, the merged mapping's keys join the record's own, and a
//     key both merged and written (or merged twice) is refused
//     ("duplicate key"); a list of mappings cannot be merged there;
//   - into a map of the fixture (initial_world, world_override,
//     expect_world, slots, args, host_handlers, by_call, data, ...) and
//     into any value below, keys are taken in file order and a later one
//     replaces an earlier one, merged or written (`n: 7` then
//     `<<: {n: 1}` is n = 1); of a merged list, the mappings are taken in
//     order, and at the top of such a map two of them sharing a key are
//     refused;
//   - two merge keys in one mapping, or a merge of anything but a mapping
//     (or a list of mappings), are refused.

// pair is one key of a mapping and its value, merge keys expanded.
type pair struct {
	k, v   *yaml.Node
	merged bool // taken from a merge key's mapping
}

// maxMergeDepth bounds merges of merges.
const maxMergeDepth = 64

// maxMergedKeys bounds the keys merge keys copy in one fixture file (all
// its documents): mappings that each merge two of the level below double
// at every level, and 60 levels would copy 2^60 keys.
const maxMergedKeys = 100_000

// mergeLeft is what p's file may still copy through merge keys, its
// count started on first use.
func (p *parser) mergeLeft() *int {
	if p.merges == nil {
		n := maxMergedKeys
		p.merges = &n
	}
	return p.merges
}

// spend charges n keys copied (at least 1: a merge of an empty mapping
// still costs its walk); false once the file's limit is passed, which is
// reported once per document, at the merge that finds it passed.
func (p *parser) spend(at *yaml.Node, where string, n int) bool {
	left := p.mergeLeft()
	if *left -= max(n, 1); *left >= 0 {
		return true
	}
	if !p.mergeCut {
		p.mergeCut = true
		p.errf(at, ruleValue, "%s: merge keys (<<:) copy more than %d keys in this fixture file (mappings merging mappings that merge others); write the keys out, or split the file", where, maxMergedKeys)
	}
	return false
}

// isMergeKey: k is a plain `<<` key.
func isMergeKey(k *yaml.Node) bool { return k != nil && k.Tag == "!!merge" }

// record is mapping n's keys as upstream's decoder reads them into a
// record of named keys: merged keys in place, a repeated key refused.
func (p *parser) record(n *yaml.Node, where string) []pair {
	out := p.mergePairs(n, where, true, 0)
	first := map[string]pair{}
	for _, q := range out {
		prev, ok := first[q.k.Value]
		if !ok {
			first[q.k.Value] = q
			continue
		}
		if q.merged || prev.merged {
			p.errf(q.k, ruleShape, "%s: key %q is given twice through a merge key (<<:, first at %s): the existing engine refuses this fixture file (duplicate key %q); drop it from the merged mapping or from here", where, q.k.Value, p.lineCol(prev.k), q.k.Value)
		}
	}
	return out
}

// entries is mapping n's keys as upstream's decoder reads them into a
// map: merged keys in place, in file order (a repeated key: the later one
// is the one read).
func (p *parser) entries(n *yaml.Node, where string) []pair {
	return p.mergePairs(n, where, false, 0)
}

// mergePairs lists n's pairs with its merge key's mappings expanded
// where the key stands, reporting repeated written keys (a YAML error
// upstream), two merge keys, and merges of anything but mappings.
func (p *parser) mergePairs(n *yaml.Node, where string, intoRecord bool, depth int) []pair {
	if depth > 0 && !p.spend(n, where, len(n.Content)/2) {
		return nil
	}
	out := make([]pair, 0, len(n.Content)/2)
	seen := yamlnode.NewSeen(n)
	var mergeAt *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			k = aliasKeyText(k)
			if prev := seen.Prev(i, k.Value); prev != nil {
				p.repeatedKey(n, i, k, where)
			}
			out = append(out, pair{k: k, v: v})
			continue
		}
		if mergeAt != nil {
			p.errf(k, ruleShape, "%s: a second merge key (<<:, the first at %s): the existing engine refuses this fixture file (mapping key \"<<\" already defined); merge a list instead (<<: [*a, *b])", where, p.lineCol(mergeAt))
			continue
		}
		mergeAt = k
		if depth >= maxMergeDepth {
			p.errf(k, ruleShape, "%s: merge keys nested more than %d deep; write the keys out", where, maxMergeDepth)
			continue
		}
		src := yamlnode.Deref(v)
		switch {
		case src != nil && src.Kind == yaml.MappingNode:
			out = appendMerged(out, p.mergePairs(src, where, intoRecord, depth+1))
		case src != nil && src.Kind == yaml.SequenceNode && !intoRecord:
			from := map[string]*yaml.Node{} // key -> where an earlier mapping of the list has it
			for _, e := range src.Content {
				el := yamlnode.Deref(e)
				if el == nil || el.Kind != yaml.MappingNode {
					p.errf(e, ruleShape, "%s: <<: merges mappings, and this item of the list is %s: the existing engine refuses this fixture file; write a mapping (or an alias of one)", where, kindText(el))
					continue
				}
				ps := p.mergePairs(el, where, intoRecord, depth+1)
				mine := map[string]*yaml.Node{}
				for _, q := range ps {
					key, _ := decodedText(q.k)
					if prev := from[key]; prev != nil && !p.mergeListRepeats && p.firstRepeat(q.k, prev) {
						p.errf(q.k, ruleShape, "%s: key %q is in two mappings of the merged list (first at %s): the existing engine refuses this fixture file (duplicate key %q); keep it in one", where, key, p.lineCol(prev), key)
					}
					mine[key] = q.k
				}
				for key, at := range mine {
					if from[key] == nil {
						from[key] = at
					}
				}
				out = appendMerged(out, ps)
			}
		case src != nil && src.Kind == yaml.SequenceNode:
			p.errf(v, ruleShape, "%s: <<: merges a list of mappings, which the existing engine cannot merge here (sequence was used where mapping is expected); merge one mapping", where)
		default:
			p.errf(v, ruleShape, "%s: <<: merges mappings, and this is %s: the existing engine refuses this fixture file; write a mapping (or an alias of one)", where, kindText(src))
		}
	}
	return out
}

// aliasKeyText is the key k as a decoder reads it: an alias used as a
// key (`*k : v`) is its anchor's text, placed where the alias is written;
// any other key is itself.
func aliasKeyText(k *yaml.Node) *yaml.Node {
	d := yamlnode.Deref(k)
	if k.Kind != yaml.AliasNode || d == nil || d.Kind != yaml.ScalarNode {
		return k
	}
	c := *d
	c.Anchor, c.Line, c.Column = "", k.Line, k.Column
	return &c
}

// repeatedKey reports k, the key at n.Content[i], given again in the
// mapping n: written twice (a parse error upstream), or through an alias
// key (the decoder's duplicate key), which upstream refuses in a record
// and at the top of a map alike.
func (p *parser) repeatedKey(n *yaml.Node, i int, k *yaml.Node, where string) {
	var prev *yaml.Node
	for j := 0; j+1 < i && prev == nil; j += 2 {
		if c := n.Content[j]; !isMergeKey(c) {
			if ck := yamlnode.Deref(c); ck != nil && ck.Kind == yaml.ScalarNode && ck.Value == k.Value {
				prev = c
			}
		}
	}
	if prev == nil {
		return
	}
	alias := n.Content[i]
	if alias.Kind != yaml.AliasNode {
		alias = prev
	}
	if alias.Kind != yaml.AliasNode {
		p.duplicateKey(k, prev, where)
		return
	}
	p.errf(k, ruleShape, "%s: key %q is given twice through an alias key (*%s, first at %s): the existing engine refuses this fixture file (duplicate key %q); write the key once", where, k.Value, alias.Value, p.lineCol(prev), k.Value)
}

// firstRepeat is whether key repeating first in a merged list is not yet
// reported.
func (p *parser) firstRepeat(key, first *yaml.Node) bool {
	if p.repeatsSaid == nil {
		p.repeatsSaid = map[[2]*yaml.Node]bool{}
	}
	at := [2]*yaml.Node{key, first}
	if p.repeatsSaid[at] {
		return false
	}
	p.repeatsSaid[at] = true
	return true
}

func appendMerged(out, ps []pair) []pair {
	for _, q := range ps {
		q.merged = true
		out = append(out, q)
	}
	return out
}

// kindText names what a node is, for messages.
func kindText(n *yaml.Node) string {
	switch {
	case n == nil || yamlnode.IsNull(n):
		return "null"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	}
	return fmt.Sprintf("the scalar %q", n.Value)
}
