package yamlnode

import (
	"bytes"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
)

// MaxTreeNodes bounds the nodes of one parsed YAML document. A node (key,
// value or item) weighs many times its text in the tree, so a large file
// of short items could hold gigabytes before any check saw it; a parse
// stops at the node past the limit (BenchmarkOneLineStoryPastTheNodeLimit
// measures it).
const MaxTreeNodes = MaxNodes

// Over is where a document passes its node limit: the 1-based line and
// column of the first node past it.
type Over struct{ Line, Col int }

// Decode parses data, one YAML document: yamlfast's tree, which stops at
// the node past max (over, no tree; a file that could pass max is counted
// before any node is built), else yaml.v3's, refused the same way.
// A file yamlfast turns down that could hold more than max nodes is counted
// first as countable masks it; one it still turns down is refused
// (a *Declined error, naming the place and the fix) rather than built whole by yaml.v3,
// which holds every node before any can be counted. err is yaml.v3's
// error, io.EOF for a stream with no document.
func Decode(data []byte, max int) (doc *yaml.Node, over *Over, err error) {
	doc, fd, o := yamlfast.ParseWithin(data, max)
	if o != nil {
		return nil, &Over{Line: o.Line, Col: o.Col}, nil
	}
	if fd == nil {
		return doc, nil, nil
	}
	// Only a file of more than 2/3 max bytes can pass max
	// (yamlfast.CouldPass): a smaller one is built by yaml.v3 and counted
	// after. One yamlfast turned down only in a later document has its
	// first, the one yaml.v3 reads, counted whole within max already.
	if yamlfast.CouldPass(len(data), max) && !fd.Later {
		o, d := yamlfast.Count(countable(data), max)
		if o != nil {
			return nil, &Over{Line: o.Line, Col: o.Col}, nil
		}
		// yaml.v3 reads the first document only: one yamlfast took whole
		// is within max
		if d != nil && !d.Later {
			return nil, nil, &Declined{Line: atLeast1(d.Line), Col: atLeast1(d.Col), Why: d.Why, Bytes: max * 2 / 3}
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

// Declined is Decode's refusal of a file of more than Bytes bytes that
// only yaml.v3 parses: the place yamlfast turned it down and why. Its
// text reads as a yaml.v3 error ("yaml: line N: ...", ErrLine).
type Declined struct {
	Line, Col int
	Why       string
	Bytes     int
}

// atLeast1 is n, or 1 for a place yamlfast did not know (0).
func atLeast1(n int) int { return max(n, 1) }

func (d *Declined) Error() string {
	return fmt.Sprintf("yaml: line %d: this file is over %d bytes and uses YAML that kitsoki reads only by building its whole tree, which could pass the node limit before it is counted (%s, column %d): write this place in plain block or flow style (no complex key \"? \", no control or line-separator character), or split the file", d.Line, d.Bytes, d.Why, d.Col)
}

// countable is data with its anchors and tags written as spaces and each
// alias as a plain scalar of its length ("*a" as "_a"), so that yamlfast,
// which takes none of them, parses the nodes yaml.v3 would, at the same
// places. A property starts a token: at a line's start, after a space or
// a flow indicator; it ends at a space or a flow indicator. One inside a
// scalar or a comment changes nothing of the count. A tab is written as a
// space and a carriage return without a line feed as a line feed (each
// the same separation or line break to libyaml; a tab in indentation,
// which yaml.v3 refuses, is counted). What yamlfast still turns down
// (complex keys, escapes and characters yaml.v3 refuses, ...) is refused
// by Decode past 2/3 max bytes.
func countable(data []byte) []byte {
	out := bytes.Clone(data)
	for i, c := range out {
		switch {
		case c == '\t':
			out[i] = ' '
		case c == '\r' && (i+1 == len(out) || out[i+1] != '\n'):
			out[i] = '\n'
		}
	}
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
