package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestFirstRepeatedKey: the repeat written first in the file wins, however
// deep; merge keys count; an alias's mapping is checked once, where written.
func TestFirstRepeatedKey(t *testing.T) {
	for _, c := range []struct {
		src       string
		want      string // the repeated key, or "" for none
		wantFirst [2]int
	}{
		{"a: {x: 1, x: 2}\na: 3\n", "x", [2]int{1, 5}},
		{"a: 1\nb: [{c: 1}, {c: 2, d: {e: 1, e: 1}}]\na: 2\n", "e", [2]int{2, 24}},
		{"m: {<<: {a: 1}, <<: {b: 2}}\n", "<<", [2]int{1, 5}},
		{"1: a\n\"1\": b\n", "1", [2]int{1, 1}},
		{"a: &x {k: 1}\nb: *x\nc: *x\n", "", [2]int{}},
		{"a: {k: 1}\nb: {k: 1}\n", "", [2]int{}},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatal(err)
		}
		second, first := FirstRepeatedKey(&doc)
		if c.want == "" {
			if second != nil {
				t.Errorf("%q: found %q at %d:%d, want none", c.src, second.Value, second.Line, second.Column)
			}
			continue
		}
		if second == nil || second.Value != c.want || first.Line != c.wantFirst[0] || first.Column != c.wantFirst[1] {
			t.Errorf("%q: got %v %v, want %q first at %v", c.src, second, first, c.want, c.wantFirst)
		}
	}
}
