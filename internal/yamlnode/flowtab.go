package yamlnode

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// FlowKeyTab finds the first plain key of a flow mapping that a tab sets
// apart from the `{` or `,` before it on its own line (`{a: 1,<TAB>b: 2}`),
// in the document n decoded from src. Upstream's YAML parser refuses every
// file that holds one ("tab character cannot use as a map key directly"): a
// story, a fixture file, a cassette. A tab elsewhere (before a quoted key,
// in a flow list, after a line break, after a colon) it reads as space.
func FlowKeyTab(n *yaml.Node, src []byte) *yaml.Node {
	if n == nil || bytes.IndexByte(src, '\t') < 0 {
		return nil
	}
	return flowKeyTab(n, bytes.Split(src, []byte("\n")), 0)
}

func flowKeyTab(n *yaml.Node, lines [][]byte, depth int) *yaml.Node {
	if n == nil || depth > MaxDepth {
		return nil
	}
	if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Style == 0 && tabBefore(lines, k.Line, k.Column) {
				return k
			}
		}
	}
	for _, c := range n.Content {
		if k := flowKeyTab(c, lines, depth+1); k != nil {
			return k
		}
	}
	return nil
}

// tabBefore reports whether the blanks before column col (1-based, in
// characters) of line (1-based) hold a tab and follow a `{` or a `,`.
func tabBefore(lines [][]byte, line, col int) bool {
	if line < 1 || line > len(lines) || col < 2 {
		return false
	}
	rs := []rune(string(lines[line-1]))
	if col-1 > len(rs) {
		return false
	}
	tab := false
	for i := col - 2; i >= 0; i-- {
		switch rs[i] {
		case '\t':
			tab = true
		case ' ':
		case '{', ',':
			return tab
		default:
			return false
		}
	}
	return false
}

// FlowKeyTabMsg is the refusal of the key [FlowKeyTab] found in a file of
// the kind what ("story file", "fixture"), placed by the caller.
func FlowKeyTabMsg(what string) string {
	return "a tab before this key of a flow mapping ({...}); the existing engine refuses this " + what +
		" (tab character cannot use as a map key directly): use spaces there"
}
