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
// (a file yamlfast turns down for its anchors, aliases or tags is counted
// first without them, countable; one it still turns down is built whole
// before it is counted). err is yaml.v3's error, io.EOF for a stream with
// no document.
func Decode(data []byte, max int) (doc *yaml.Node, over *Over, err error) {
	doc, ok, o := yamlfast.ParseLimit(data, max)
	if o != nil {
		return nil, &Over{Line: o.Line, Col: o.Col}, nil
	}
	if ok {
		return doc, nil, nil
	}
	// yamlfast took none of anchors, aliases and tags: counted without
	// them (the same nodes at the same places), a file past max is refused
	// before yaml.v3 builds its whole tree. Only a file of more than
	// 2/3 max bytes can pass max (a node in a flow list of "?" entries,
	// the densest, takes 2/3 of a byte).
	if max > 0 && len(data) > max*2/3 {
		if _, _, o := yamlfast.ParseLimit(countable(data), max); o != nil {
			return nil, &Over{Line: o.Line, Col: o.Col}, nil
		}
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

// countable is data with its anchors and tags written as spaces and each
// alias as a plain scalar of its length ("*a" as "_a"), so that yamlfast,
// which takes none of them, parses the nodes yaml.v3 would, at the same
// places. A property starts a token: at a line's start, after a space or
// a flow indicator; it ends at a space or a flow indicator. One inside a
// scalar or a comment changes nothing of the count. What yamlfast still
// turns down (complex keys, misplaced tabs, a property first on an
// indented line, which moves what follows) is not counted before
// yaml.v3's parse.
func countable(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c != '&' && c != '*' && c != '!' || i > 0 && !propBefore(out[i-1]) {
			continue
		}
		j := i + 1
		for j < len(out) && !propEnd(out[j]) {
			j++
		}
		if c == '*' {
			out[i] = '_'
		} else {
			for k := i; k < j; k++ {
				out[k] = ' '
			}
		}
		i = j - 1
	}
	return out
}

// propBefore reports whether a node's properties may follow c.
func propBefore(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '[', '{', ',':
		return true
	}
	return false
}

// propEnd reports whether c ends an anchor, alias or tag.
func propEnd(c byte) bool { return propBefore(c) || c == '\r' || c == ']' || c == '}' }

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
