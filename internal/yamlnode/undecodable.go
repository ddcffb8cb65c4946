package yamlnode

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// Undecodable reports, each at its place under at, what under n yaml.v3
// refuses to decode into a Go value (any) that its parser took: a scalar
// whose explicit tag its text does not fit (`!!int abc`, a `!!binary`
// that is no base64), a merge key (`<<:`) of no mapping or list of
// mappings, and a key written twice in one mapping, compared as yaml.v3
// compares them (an alias key is not its anchor's text). Aliases are not
// followed: what one names is reported where it is written. A reader
// decodes first and walks only a file that did not decode, so what it
// accepts is yaml.v3's own.
func (w *Walker) Undecodable(n *yaml.Node, at Place) {
	switch {
	case n == nil:
	case n.Kind == yaml.ScalarNode:
		w.badScalar(n, at)
	case n.Kind == yaml.SequenceNode:
		for i, it := range n.Content {
			w.Undecodable(it, at.Item(i))
		}
	case n.Kind == yaml.MappingNode:
		w.undecodableMapping(n, at)
	}
}

func (w *Walker) undecodableMapping(n *yaml.Node, at Place) {
	type written struct {
		kind  yaml.Kind
		value string
	}
	first := make(map[written]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if p := first[written{k.Kind, k.Value}]; p != nil {
			w.Report(w.Pos(k), diag.Error, w.Rules.Duplicate, "%s: given twice in one mapping (first at line %d, column %d): keep one", at.Dot(k.Value), p.Line, p.Column)
		} else {
			first[written{k.Kind, k.Value}] = k
		}
		key := Place{Where: at.Dot(k.Value)}
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			w.badMerge(v, key)
			continue
		}
		w.Undecodable(k, key)
		w.Undecodable(v, key)
	}
}

// badMerge reports the value v of a merge key unless it is a mapping or
// a list of mappings (aliases of them).
func (w *Walker) badMerge(v *yaml.Node, at Place) {
	const want = "merges a mapping or a list of mappings"
	switch d := Deref(v); {
	case d == nil || d.Kind == yaml.MappingNode:
	case d.Kind == yaml.SequenceNode:
		for i, it := range d.Content {
			if m := Deref(it); m == nil || m.Kind != yaml.MappingNode {
				w.ReportAt(w.Pos(it), at, diag.Error, w.Rules.Type, "%s: %s, got %s as item %d", at.String(), want, Describe(m), i)
			}
		}
	default:
		w.ReportAt(w.Pos(v), at, diag.Error, w.Rules.Type, "%s: %s, got %s", at.String(), want, Describe(d))
	}
	if v.Kind != yaml.AliasNode {
		w.Undecodable(v, at)
	}
}

// badScalar reports the scalar n when its explicit tag does not fit its
// text: yaml.v3 refuses `!!int abc` rather than read it as text.
func (w *Walker) badScalar(n *yaml.Node, at Place) {
	var v any
	err := n.Decode(&v)
	if err == nil {
		return
	}
	tag := n.ShortTag()
	if tag == "!!binary" {
		w.ReportAt(w.Pos(n), at, diag.Error, w.Rules.Type, "%s: the !!binary value is not base64: fix it, or drop the tag to keep the text", at.String())
		return
	}
	if !strings.Contains(err.Error(), "cannot decode") {
		w.ReportAt(w.Pos(n), at, diag.Error, w.Rules.Type, "%s: %s", at.String(), strings.TrimPrefix(err.Error(), "yaml: "))
		return
	}
	w.ReportAt(w.Pos(n), at, diag.Error, w.Rules.Type, "%s: %s is not %s: drop the tag %s to keep the text, or write %s", at.String(), Describe(n), tagShape(tag), tag, tagShape(tag))
}

// tagShape names what a scalar of the YAML tag holds.
func tagShape(tag string) string {
	switch tag {
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "true or false"
	case "!!null":
		return "null"
	case "!!timestamp":
		return "a timestamp"
	}
	return "a " + tag + " value"
}
