package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestFileWalkerErr: a file walker's findings come back as one line in
// file order, each at file:line:col; Decoded reads a scalar as yaml.v3
// decodes it into the Go type (2.9 into an int is 2, "5" is refused);
// DecodedStrList leaves a null item out and keeps [] empty.
func TestFileWalkerErr(t *testing.T) {
	src := "b: {n: '5'}\na: {n: 2.9, zzz: x, l: [a, ~], e: []}\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	w := NewFileWalker("f.yaml", len(src))
	got := map[string]int{}
	var l, e []string
	w.Mapping(doc.Content[0], "top level", nil, func(key string, _, v *yaml.Node) {
		w.Fields(v, key, Fields{
			{Key: "n", Read: func(_, v *yaml.Node) { got[key] = Decoded[int](w, v, key+".n", "an integer") }},
			{Key: "l", Read: func(_, v *yaml.Node) { l = w.DecodedStrList(v, key+".l") }},
			{Key: "e", Read: func(_, v *yaml.Node) { e = w.DecodedStrList(v, key+".e") }},
		})
	})
	want := "f.yaml:1:8: b.n: expected an integer, got \"5\"; f.yaml:2:13: a: unknown key \"zzz\"; expected one of `e`, `l`, `n`"
	if err := w.Err(); err == nil || err.Error() != want {
		t.Errorf("Err() = %v\nwant %s", err, want)
	}
	if got["a"] != 2 || got["b"] != 0 || len(l) != 1 || l[0] != "a" || e == nil || len(e) != 0 {
		t.Errorf("read %v, l %q, e %#v", got, l, e)
	}
	if err := NewFileWalker("g.yaml", 0).Err(); err != nil {
		t.Errorf("no finding: %v", err)
	}
}
