package flowtest

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// srcDoc is one document of a fixture file with the offsets that turn
// its yaml.v3 positions into the file's byte offsets.
type srcDoc struct {
	src    []byte // the whole file
	root   *yaml.Node
	index  int   // which "\n---" piece of the file the document is
	line   int   // lines of the file before the document
	colOff int   // bytes before the document on its first line
	starts []int // byte offset of each line of the file
}

// lineStarts is the byte offset of each line of src.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// offset is the file's byte offset of node n (whose columns count characters).
func (d *srcDoc) offset(n *yaml.Node) (int, error) {
	line := d.line + n.Line - 1
	if n.Line < 1 || line >= len(d.starts) {
		return 0, fmt.Errorf("position %d:%d is outside the file", n.Line, n.Column)
	}
	off := d.starts[line]
	if n.Line == 1 {
		off += d.colOff
	}
	for c := 1; c < n.Column; c++ {
		if off >= len(d.src) || d.src[off] == '\n' {
			return 0, fmt.Errorf("position %d:%d is outside its line", n.Line, n.Column)
		}
		_, w := utf8.DecodeRune(d.src[off:])
		off += w
	}
	return off, nil
}

// lineEnd is the offset of the '\n' ending the line holding off, or len(src).
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

// indentOf is the number of spaces starting the line at off.
func indentOf(src []byte, off int) int {
	return len(src[off:]) - len(bytes.TrimLeft(src[off:], " "))
}

// blank reports whether the line starting at off holds only blanks.
func blank(src []byte, off int) bool {
	return len(bytes.TrimRight(src[off:lineEnd(src, off)], " \t\r")) == 0
}

// span is the byte range [start, end) of node n's text, comments
// excluded; flow: n sits inside a flow collection.
func (d *srcDoc) span(n *yaml.Node, flow bool) (start, end int, err error) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return 0, 0, errAnchor
	}
	start, err = d.offset(n)
	if err != nil {
		return 0, 0, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		end, err = d.scalarEnd(n, start, flow)
	case yaml.MappingNode, yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 {
			end, err = flowEnd(d.src, start)
		} else {
			end, err = d.blockEnd(n)
		}
	default:
		err = fmt.Errorf("unexpected node kind %d", n.Kind)
	}
	return start, end, err
}

// errAnchor refuses a node other places may share through an anchor.
var errAnchor = fmt.Errorf("the value comes from a YAML anchor or alias (&name / *name), which other places may share; edit it by hand")

// blockEnd is the end of a block collection: the end of its last entry.
func (d *srcDoc) blockEnd(n *yaml.Node) (int, error) {
	if len(n.Content) == 0 {
		return 0, fmt.Errorf("empty block collection")
	}
	last := n.Content[len(n.Content)-1]
	if n.Kind == yaml.MappingNode && last.Kind == yaml.ScalarNode && last.Value == "" && last.Style == 0 {
		// "key:" with nothing after it: the entry ends with its key.
		last = n.Content[len(n.Content)-2]
	}
	_, end, err := d.span(last, false)
	return end, err
}

func (d *srcDoc) scalarEnd(n *yaml.Node, start int, flow bool) (int, error) {
	src := d.src
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		if end, ok := quotedEnd(src, start, '"'); ok {
			return end, nil
		}
		return 0, fmt.Errorf("unterminated double-quoted scalar")
	case n.Style&yaml.SingleQuotedStyle != 0:
		if end, ok := quotedEnd(src, start, '\''); ok {
			return end, nil
		}
		return 0, fmt.Errorf("unterminated single-quoted scalar")
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		_, end, err := blockScalarBody(src, start)
		return end, err
	}
	return plainEnd(src, start, n.Value, flow)
}

// plainEnd is the end of a plain scalar whose value is val, on its line
// or folded over the lines that follow.
func plainEnd(src []byte, start int, val string, flow bool) (int, error) {
	end := lineEnd(src, start)
	code, _, _ := strings.Cut(string(src[start:end]), " #")
	if i := strings.IndexAny(code, ",]}"); flow && i >= 0 {
		code = code[:i]
	}
	text := strings.TrimRight(code, " \t\r")
	if text == val {
		return start + len(text), nil
	}
	if flow || strings.Contains(code, ": ") {
		return 0, fmt.Errorf("cannot find the end of the plain scalar %q", clip(val))
	}
	// A plain scalar folded over several lines: each further line adds
	// its trimmed text (a space between, a blank line a newline).
	folded, pending := text, ""
	for off := end + 1; off < len(src) && len(folded) <= len(val); off = lineEnd(src, off) + 1 {
		if blank(src, off) {
			pending += "\n"
			continue
		}
		l, _, _ := strings.Cut(string(src[off:lineEnd(src, off)]), " #")
		folded += cmp.Or(pending, " ") + strings.TrimSpace(l)
		pending = ""
		if folded == val {
			return off + len(strings.TrimRight(l, " \t\r")), nil
		}
	}
	return 0, fmt.Errorf("cannot find the end of the plain scalar %q", clip(val))
}

// blockScalarBody is where the body of the block scalar whose header
// starts at start ends, and its indentation.
func blockScalarBody(src []byte, start int) (indent, end int, err error) {
	hdrEnd := lineEnd(src, start)
	header, _, _ := strings.Cut(string(src[start:hdrEnd]), " #")
	header = strings.TrimSpace(header)
	if strings.ContainsAny(header, "+123456789") {
		return 0, 0, fmt.Errorf("a block scalar with a keep (+) or indentation indicator (%s)", header)
	}
	// The parent's indentation: the content must be deeper than the line
	// holding the header.
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	parent := indentOf(src, lineStart)
	end = hdrEnd
	for off := hdrEnd + 1; off < len(src); off = lineEnd(src, off) + 1 {
		if blank(src, off) {
			continue
		}
		ind := indentOf(src, off)
		if indent == 0 {
			if ind <= parent {
				break
			}
			indent = ind
		}
		if ind < indent {
			break
		}
		end = off + len(bytes.TrimRight(src[off:lineEnd(src, off)], "\r"))
	}
	if indent == 0 {
		indent = parent + 2
	}
	return indent, end, nil
}

// quotedEnd is the offset after the closing quote q of the scalar quoted
// at start; false when it is not closed.
func quotedEnd(src []byte, start int, q byte) (int, bool) {
	for i := start + 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] != q:
		case q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		default:
			return i + 1, true
		}
	}
	return 0, false
}

// flowEnd is the offset after the bracket closing the flow collection at start.
func flowEnd(src []byte, start int) (int, error) {
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		case '"', '\'':
			end, ok := quotedEnd(src, i, src[i])
			if !ok {
				return 0, fmt.Errorf("unterminated flow collection")
			}
			i = end - 1
		case '#':
			if i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n') {
				i = lineEnd(src, i) - 1
			}
		}
	}
	return 0, fmt.Errorf("unterminated flow collection")
}
