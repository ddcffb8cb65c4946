package yamlnode

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestFlowKeyTab holds the forms probed on the existing engine (hunt97,
// /tmp/hunt97/tab/A..X): upstream's parser refuses a file where a tab
// parts a plain key of a flow mapping from the `{` or `,` before it on
// its line, and reads every other tab as a space.
func TestFlowKeyTab(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int // 0: taken
	}{
		{"x: {a: 1,\tb: 2}\n", 1, 11},
		{"x: {\ta: 1}\n", 1, 6},
		{"x: {a: 1 ,\tb: 2}\n", 1, 12},
		{"x: {a: 1,\t\tb: 2}\n", 1, 12},
		{"x: {a: 1,\t b: 2}\n", 1, 12},
		{"x: {a: 1, \tb: 2}\n", 1, 12},
		{"x: [a, {\tb: 2}]\n", 1, 10},
		{"x: {a: {b: 1,\tc: 2}}\n", 1, 15},
		{"é: {a: 1,\tb: 2}\n", 1, 11},
		{"x: [a,\tb]\n", 0, 0},
		{"x:\tvalue\n", 0, 0},
		{"x: v\t\n", 0, 0},
		{"x: {a:\t1}\n", 0, 0},
		{"x: {a: 1\t}\n", 0, 0},
		{"x: {a: 1\t,b: 2}\n", 0, 0},
		{"x: {a: 1,\n\tb: 2}\n", 0, 0},
		{"x: {a: 1,\n  \tb: 2}\n", 0, 0},
		{"x: [{a: 1},\t{b: 2}]\n", 0, 0},
		{"x: {a: [1,\t2]}\n", 0, 0},
		{"x: '{a: 1,\tb: 2}'\n", 0, 0},
		{"x: {\"a\": 1,\t\"b\": 2}\n", 0, 0},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		k := FlowKeyTab(&doc, []byte(c.src))
		switch {
		case c.line == 0 && k != nil:
			t.Errorf("%q: refused at %d:%d, upstream takes it", c.src, k.Line, k.Column)
		case c.line != 0 && (k == nil || k.Line != c.line || k.Column != c.col):
			t.Errorf("%q: got %v, want a refusal at %d:%d", c.src, k, c.line, c.col)
		}
	}
	if !strings.Contains(FlowKeyTabMsg("story file"), "refuses this story file (tab character cannot use as a map key directly)") {
		t.Error(FlowKeyTabMsg("story file"))
	}
}
