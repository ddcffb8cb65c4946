package yamlnode

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The existing engine reads the YAML 1.2 escape `\/` in a double-quoted
// scalar as "/"; yaml.v3 refuses it. The mask writes each `\/` as `\a`
// (same length, so positions hold), the unmask turns BEL and `\a` back,
// only for a text where neither can come otherwise; any other text is
// left as is. Conformance golden yaml-slash-escape under pkg/engine.

// slashMaskBlockers are the spellings (lowercase) whose presence makes the
// mask ambiguous: a BEL or a backslash written some other way.
var slashMaskBlockers = []string{`\a`, `\x07`, `\u0007`, `\U00000007`, `\x5c`, `\u005c`, `\U0000005c`}

// MaskSlashEscapes returns data with every `\/` written as `\a`, and true,
// when data holds a `\/` and the mask is exact for it; else data and false.
func MaskSlashEscapes(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte(`\/`)) {
		return data, false
	}
	lower := bytes.ToLower(data)
	for _, b := range slashMaskBlockers {
		if bytes.Contains(lower, bytes.ToLower([]byte(b))) {
			return data, false
		}
	}
	return bytes.ReplaceAll(data, []byte(`\/`), []byte(`\a`)), true
}

// UnmaskSlashEscapes undoes MaskSlashEscapes in the tree of the masked text.
func UnmaskSlashEscapes(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode {
		if n.Style&yaml.DoubleQuotedStyle != 0 {
			n.Value = strings.ReplaceAll(n.Value, "\a", "/")
		}
		n.Value = strings.ReplaceAll(n.Value, `\a`, `\/`)
	}
	for _, c := range []*string{&n.HeadComment, &n.LineComment, &n.FootComment} {
		*c = strings.ReplaceAll(*c, `\a`, `\/`)
	}
	for _, c := range n.Content {
		UnmaskSlashEscapes(c)
	}
}

// Unmarshal is yaml.Unmarshal into a node tree with `\/` read as upstream
// reads it, for the data files read beside a story, within MaxTreeNodes:
// past them, an error at the node past the limit (yaml.v3's "line N:"
// form) naming the fix.
func Unmarshal(data []byte, doc *yaml.Node) error { return unmarshalWithin(data, doc, MaxTreeNodes) }

func unmarshalWithin(data []byte, doc *yaml.Node, max int) error {
	data, masked := MaskSlashEscapes(data)
	if err := decodeInto(data, doc, max); err != nil {
		return err
	}
	if masked {
		UnmaskSlashEscapes(doc)
	}
	return nil
}
