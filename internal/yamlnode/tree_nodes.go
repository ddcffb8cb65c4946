package yamlnode

import (
	"bytes"
	"strconv"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
)

// MaxTreeNodes bounds the nodes of one parsed YAML document. A node (key,
// value or item) weighs about 200 bytes in the tree, many times its text,
// so a 60 MB one-line file of short items held gigabytes before it was
// refused; a parse now stops at the node past the limit.
const MaxTreeNodes = MaxNodes

// Over is where a document passes its node limit: the 1-based line and
// column of the first node past it.
type Over struct{ Line, Col int }

// Decode parses data, one YAML document: yamlfast's tree, which stops at
// the node past max (over, no tree), else yaml.v3's, refused the same way
// once built (yamlfast declines anchors, tags and a few rare forms; such
// a file's tree is built whole before it is counted). err is yaml.v3's
// error, io.EOF for a stream with no document.
func Decode(data []byte, max int) (doc *yaml.Node, over *Over, err error) {
	doc, ok, o := yamlfast.ParseLimit(data, max)
	if o != nil {
		return nil, &Over{Line: o.Line, Col: o.Col}, nil
	}
	if ok {
		return doc, nil, nil
	}
	doc = &yaml.Node{}
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		return nil, nil, err
	}
	if n := nodePast(doc, max); n != nil {
		return nil, &Over{Line: n.Line, Col: n.Column}, nil
	}
	return doc, nil, nil
}

// nodePast is the node past the first max of n's tree in document order
// (aliases not followed: the tree's own nodes), or nil.
func nodePast(n *yaml.Node, max int) *yaml.Node {
	if max <= 0 {
		return nil
	}
	left := max
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if left--; left < 0 {
			return n
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
	return nil
}

// TreeNodesMsg is the refusal of a what ("story file") holding more than
// max YAML nodes, fix the way to shrink it.
func TreeNodesMsg(what string, max int, fix string) string {
	return "the " + what + " holds more than " + strconv.Itoa(max) + " YAML nodes (keys, values and items) by here, more than kitsoki holds in memory for one file: " + fix
}
