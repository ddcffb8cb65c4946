package flowtest

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// decodeRecording decodes a recording's YAML into raw, its slot values
// keeping their text as upstream's do (1e3, dates), after prep (if any)
// has retagged the tree; doc is the tree read, for errors that name a key.
func decodeRecording(data []byte, raw any, prep func(*yaml.Node)) (doc *yaml.Node, err error) {
	doc = &yaml.Node{}
	if err := yamlnode.Unmarshal(data, doc); err != nil {
		return doc, err
	}
	if at := yamlnode.AliasTextFileOver(doc); at != nil {
		return doc, fmt.Errorf("line %d: %s", at.Line, yamlnode.AliasTextMsg("recording", ""))
	}
	yamlnode.TextPointlessFloats(doc)
	textTimestamps(doc)
	if prep != nil {
		prep(doc)
	}
	return doc, doc.Decode(raw)
}

// entryTexts is a flow recording's prep: each entry's state, input,
// intent name and slot names read as a fixture's text (fixture-scalar-text).
func entryTexts(doc *yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root = yamlnode.Deref(root); root == nil || root.Kind != yaml.MappingNode {
		return
	}
	entries := yamlnode.Deref(yamlnode.Get(root, "entries"))
	if entries == nil || entries.Kind != yaml.SequenceNode {
		return
	}
	for _, e := range entries.Content {
		if e = yamlnode.Deref(e); e == nil || e.Kind != yaml.MappingNode {
			continue
		}
		toText(yamlnode.Get(e, "state"))
		toText(yamlnode.Get(e, "input"))
		in := yamlnode.Deref(yamlnode.Get(e, "intent"))
		if in == nil || in.Kind != yaml.MappingNode {
			continue
		}
		toText(yamlnode.Get(in, "name"))
		if sl := yamlnode.Deref(yamlnode.Get(in, "slots")); sl != nil && sl.Kind == yaml.MappingNode {
			for i := 0; i < len(sl.Content); i += 2 {
				toText(sl.Content[i])
			}
		}
	}
}

// toText retags a plain scalar as the text upstream's decoder reads for it.
func toText(n *yaml.Node) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return
	}
	if t, changed := decodedText(n); changed {
		n.Value, n.Tag, n.Style = t, "!!str", 0
	}
}

// textTimestamps retags every plain scalar yaml.v3 would read as a
// timestamp as a string, keeping its text (intents-conformance recording-dates).
func textTimestamps(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!timestamp" {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		textTimestamps(c)
	}
}
