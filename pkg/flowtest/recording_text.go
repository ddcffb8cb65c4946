package flowtest

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// decodeRecordingDoc decodes a recording's YAML into raw, its slot values
// keeping their text as upstream's do (1e3, dates); doc is the tree read
// (empty when the YAML does not parse), for errors that name a key.
func decodeRecordingDoc(data []byte, raw any) (*yaml.Node, error) {
	return decodeRecordingWith(data, raw, nil)
}

// decodeFlowRecording is decodeRecordingDoc for a flow fixture's
// recording, whose entries' text (state, input, intent name, slot names)
// upstream's decoder reads as a fixture's: 0x10 is "16" (probe flowwalk
// p21; fixture-scalar-text).
func decodeFlowRecording(data []byte, raw any) (*yaml.Node, error) {
	return decodeRecordingWith(data, raw, entryTexts)
}

func decodeRecordingWith(data []byte, raw any, prep func(*yaml.Node)) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yamlnode.Unmarshal(data, &doc); err != nil {
		return &doc, err
	}
	yamlnode.TextPointlessFloats(&doc)
	textTimestamps(&doc)
	if prep != nil {
		prep(&doc)
	}
	return &doc, doc.Decode(raw)
}

// entryTexts gives each recording entry's state, input and intent name,
// and its slots' names, the text upstream's decoder reads for them.
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
// timestamp (2026-01-02, 2001-12-14t21:59:43.10-05:00) as a string, so a
// recording's slot value keeps its text as upstream's does, instead of
// becoming a time.Time printed in RFC 3339 (intents-conformance
// recording-dates).
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
