package flowtest

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// rawRecording is a recording file as read, alike for a flow replay
// (parseRecording) and the static harness (readStaticRecording); each then
// holds the entries to its own rules.
type rawRecording struct {
	Kind    string `yaml:"kind"`
	Entries []struct {
		State  string `yaml:"state"`
		Input  string `yaml:"input"`
		Intent struct {
			Name  string         `yaml:"name"`
			Slots map[string]any `yaml:"slots"`
		} `yaml:"intent"`
		// Clarify stays a node: a flow replay reads it as a boolean, the
		// static harness not at all (intents-conformance/static-recording)
		Clarify yaml.Node `yaml:"clarify"`
	} `yaml:"entries"`
}

// recordingError is why a recording's YAML does not decode: the line (0
// when the error names none) and the message, naming the key refused.
type recordingError struct {
	line, col int // col: 0 when the error names none
	msg       string
}

func (e *recordingError) Error() string {
	if e.line == 0 {
		return e.msg
	}
	if e.col > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
	}
	return fmt.Sprintf("line %d: %s", e.line, e.msg)
}

// decodeRecording decodes a recording's YAML, its slot values keeping
// their text as upstream's do (1e3, dates), after prep (if any) has
// retagged the tree.
func decodeRecording(data []byte, prep func(*yaml.Node)) (*rawRecording, *recordingError) {
	raw, doc := &rawRecording{}, &yaml.Node{}
	err := yamlnode.Unmarshal(data, doc)
	if err == nil {
		if at := yamlnode.AliasTextFileOver(doc); at != nil {
			err = fmt.Errorf("line %d: %s", at.Line, yamlnode.AliasTextMsg("recording", ""))
		}
	}
	if err == nil {
		if k := yamlnode.ComplexKey(doc); k != nil {
			return nil, &recordingError{line: k.Line, col: k.Column, msg: yamlnode.ComplexKeyMsg("recording")}
		}
	}
	if err == nil {
		// upstream's parser and decoder refuse a key given twice, the whole file
		if at, msg := yamlnode.RepeatedKey(doc, reflect.TypeFor[rawRecording](), "recording"); at != nil {
			return nil, &recordingError{line: at.Line, col: at.Column, msg: msg}
		}
		yamlnode.TextPointlessFloats(doc)
		yamlnode.TextTimestamps(doc) // conformance intentfix-recording-dates
		if prep != nil {
			prep(doc)
		}
		err = doc.Decode(raw)
	}
	if err == nil {
		return raw, nil
	}
	line, msg := decodeErrLine(err)
	if !strings.Contains(err.Error(), "line ") {
		line = 0
	}
	col := 0
	if len(doc.Content) > 0 {
		if key, n := keyAtLine(doc.Content[0], line, msg); n != nil {
			msg, col = key+": "+msg, n.Column
		}
	}
	return nil, &recordingError{line: line, col: col, msg: strings.TrimPrefix(msg, "yaml: ")}
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
