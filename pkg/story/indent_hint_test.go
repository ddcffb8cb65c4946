package story

import (
	"strings"
	"testing"
)

// yaml.v3 places "did not find expected key" at the line its block mapping
// began; the error names the key whose indentation lines up with nothing
// instead, with the indentations that would, and leaves other syntax errors
// where yaml.v3 puts them.
func TestMisindentedKeyPositioned(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line, col  int
		want       string
	}{
		{"state key", "app: {id: x}\nroot: a\nstates:\n  a:\n    on_enter:\n      - say: hi\n    terminal: true\n   b:\n    terminal: true\n",
			8, 4, "did not find expected key; this line is indented 3 spaces, which lines it up with no key above it: indent it as the key it stands beside (2 or 4 spaces)"},
		{"after a block scalar", "app: {id: x}\nroot: a\nstates:\n  a:\n    view: |\n        deep\n      shallower\n    terminal: true\n   b: {}\n",
			9, 4, "(2 or 4 spaces)"},
		{"not an indentation error", "app: {id: x}\nroot: a\nstates: {a: {terminal: true}\n",
			0, 0, ""},
	} {
		_, syn := decodeYAML([]byte(tc.text), 0)
		if syn == nil {
			t.Fatalf("%s: no syntax error", tc.name)
		}
		if tc.want == "" {
			if strings.Contains(syn.msg, "indented") {
				t.Errorf("%s: %d:%d %s: an indentation hint on another error", tc.name, syn.line, syn.col, syn.msg)
			}
			continue
		}
		if syn.line != tc.line || syn.col != tc.col || !strings.Contains(syn.msg, tc.want) {
			t.Errorf("%s: %d:%d %s; want %d:%d with %q", tc.name, syn.line, syn.col, syn.msg, tc.line, tc.col, tc.want)
		}
	}
}
