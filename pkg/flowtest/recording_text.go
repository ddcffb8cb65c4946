package flowtest

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// decodeRecordingDoc decodes a recording's YAML into raw, its slot values
// keeping their text as upstream's do (1e3, dates); doc is the tree read
// (empty when the YAML does not parse), for errors that name a key.
func decodeRecordingDoc(data []byte, raw any) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yamlnode.Unmarshal(data, &doc); err != nil {
		return &doc, err
	}
	yamlnode.TextPointlessFloats(&doc)
	textTimestamps(&doc)
	return &doc, doc.Decode(raw)
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
