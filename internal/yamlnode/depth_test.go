package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestTooDeep: values nested up to MaxDepth levels are let through, one
// more level is the node found, aliases counting as written out (a chain
// of aliases each naming the last nests as deep as it is long), and a
// value shared by many aliases is measured once (a doubling chain of 150
// levels would be 2^150 walks).
func TestTooDeep(t *testing.T) {
	chain := func(n int, item string) string {
		var b strings.Builder
		b.WriteString("a0: &a0 [x]\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.ReplaceAll(item, "P", fmt.Sprint("*a", i-1)))
		}
		return b.String()
	}
	for _, c := range []struct {
		name, src string
		line      int // of the node past the bound; 0 = none
	}{
		{"flat", "k: v\nl: [1, 2]\n", 0},
		{"at the bound", "k: " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1), 0},
		{"past it", "k: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), 1},
		{"mappings", "j: 1\nk: " + strings.Repeat("{a: ", MaxDepth) + "1" + strings.Repeat("}", MaxDepth), 2},
		{"alias chain", chain(MaxDepth+10, "P"), MaxDepth - 1},
		{"shared aliases", chain(150, "P, P"), 0},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := TooDeep(&doc, MaxDepth)
		switch {
		case c.line == 0 && got != nil:
			t.Errorf("%s: refused at line %d, want none", c.name, got.Line)
		case c.line != 0 && got == nil:
			t.Errorf("%s: let through, want refused at line %d", c.name, c.line)
		case c.line != 0 && got.Line != c.line:
			t.Errorf("%s: refused at line %d, want %d", c.name, got.Line, c.line)
		}
	}
}
