package lsp

import (
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// spot is what the cursor is on in a story YAML file.
type spot struct {
	// keys are the mapping keys from the document root to the node; a
	// sequence item is "[]".
	keys []string
	node *yaml.Node // the scalar under the cursor
	// isKey: the cursor is on a mapping key (keys ends with it).
	isKey bool
	// offset is the cursor's rune offset inside node.Value (-1 when the
	// scalar is not plain or quoted on one line).
	offset int
}

// named returns the n-th enclosing key counting from the nearest (0),
// skipping sequence items ("" past the top).
func (s *spot) named(n int) string {
	for _, k := range slices.Backward(s.keys) {
		if k == "[]" {
			continue
		}
		if n == 0 {
			return k
		}
		n--
	}
	return ""
}

// statePath is the dotted path of the state whose block holds the spot
// (statePathOf); on a state's own name, its parent is the context.
func (s *spot) statePath() string {
	if s.isKey {
		return statePathOf(s.keys[:len(s.keys)-1])
	}
	return statePathOf(s.keys)
}

// parseTree parses text as one YAML document (nil when it is none, or
// when it holds more nodes than yamlnode.MaxTreeNodes: the check's
// diagnostics say so, and no tree of a hostile buffer is built whole).
func parseTree(text string) *yaml.Node {
	doc, over, err := yamlnode.Decode([]byte(text), yamlnode.MaxTreeNodes)
	if err != nil || over != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc
}

// locate finds the scalar at 1-based line and rune col in doc, a tree
// parseTree made.
func locate(doc *yaml.Node, line, col int) *spot {
	if doc == nil {
		return nil
	}
	// keys is the path to the node walked, one slice grown and shrunk
	// (copied only for the spot found): a copy per level costs a deeply
	// nested document time and memory quadratic in its depth
	var found *spot
	var keys []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if found != nil || n == nil {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				keys = append(keys, k.Value)
				if off, ok := covers(k, line, col); ok {
					found = &spot{keys: slices.Clone(keys), node: k, isKey: true, offset: off}
					return
				}
				walk(v)
				keys = keys[:len(keys)-1]
			}
		case yaml.SequenceNode:
			keys = append(keys, "[]")
			for _, c := range n.Content {
				walk(c)
			}
			keys = keys[:len(keys)-1]
		case yaml.AliasNode:
		case yaml.ScalarNode:
			if off, ok := covers(n, line, col); ok {
				found = &spot{keys: slices.Clone(keys), node: n, offset: off}
			}
		}
	}
	walk(doc)
	return found
}

// covers reports whether the scalar n spans (line, col) and the rune
// offset inside its value.
func covers(n *yaml.Node, line, col int) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.Line != line || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return -1, false
	}
	start := n.Column
	width := utf8.RuneCountInString(n.Value)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		start++
		width++ // the closing quote still counts as on the token
	}
	if col < n.Column || col > start+width {
		return -1, false
	}
	return max(col-start, 0), true
}

// wordAt returns the dotted identifier around rune offset off in s
// ("world.ticket.id" in "{{ world.ticket.id }}").
func wordAt(s string, off int) string {
	rs := []rune(s)
	off = min(off, len(rs))
	isw := func(r rune) bool {
		return r == '_' || r == '.' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
	}
	a, b := off, off
	for a > 0 && isw(rs[a-1]) {
		a--
	}
	for b < len(rs) && isw(rs[b]) {
		b++
	}
	return strings.Trim(string(rs[a:b]), ".")
}
