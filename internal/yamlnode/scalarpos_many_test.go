package yamlnode

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// walkValueAt is ValueAt as it was before ScalarPos: one walk of the
// value a place.
func walkValueAt(lines []string, p Pos, val string, line, col int) Pos {
	if line <= 0 || col <= 0 || p.Line <= 0 || p.Col <= 0 {
		return p
	}
	at, ok := scalarRunes(lines, p, val)
	if !ok {
		return p
	}
	idx, ln, c := 0, 1, 1
	for _, r := range val {
		if ln == line && c == col {
			break
		}
		if r == '\n' {
			ln++
			c = 1
		} else {
			c++
		}
		idx++
	}
	if ln != line || c != col {
		if ln == line && idx == len(at)-1 {
			return at[idx]
		}
		return p
	}
	if idx >= len(at) {
		return p
	}
	return at[idx]
}

// One ScalarPos answers every place of a scalar as a walk a place does,
// in each YAML style, past the ends and on the line breaks.
func TestScalarPosMatchesWalk(t *testing.T) {
	for _, src := range []string{
		"k: plain value é here\n",
		"k: \"dq \\\"é\\\" \\n x \\t y\"\n",
		"k: 'sq ''é'' z'\n",
		"k: |\n  one é\n  two\n\n  four\n",
		"k: |-\n  one\n  two\n",
		"k: >\n  folded é\n  text\n\n  para\n",
		"k: \"multi\n  line é\n\n  dq\"\n",
		"k: \"\"\n",
		"k: x\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		v := doc.Content[0].Content[1]
		lines := strings.Split(src, "\n")
		p := Pos{File: "f", Line: v.Line, Col: v.Column}
		sp := NewScalarPos(lines, p, v.Value)
		for line := -1; line <= strings.Count(v.Value, "\n")+3; line++ {
			for col := -1; col <= len(v.Value)+3; col++ {
				if got, want := sp.At(line, col), walkValueAt(lines, p, v.Value, line, col); got != want {
					t.Fatalf("%q at %d:%d: %v, want %v", src, line, col, got, want)
				}
				if got, want := ValueAt(lines, p, v.Value, line, col), walkValueAt(lines, p, v.Value, line, col); got != want {
					t.Fatalf("ValueAt %q at %d:%d: %v, want %v", src, line, col, got, want)
				}
			}
		}
	}
}
