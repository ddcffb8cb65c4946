package yamlnode

import (
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestUpstreamScalars: each `-0` yaml.v3 decodes as an int 0 becomes an
// int64 0 and each !!binary its bytes, at any depth; a plain 0, a "-0"
// string and other numbers stay.
func TestUpstreamScalars(t *testing.T) {
	src := "a: -0\nb: 0\nc: [-0, 1, {d: -0}]\ne: '-0'\nf: -0_0\ng: -1\nh: &x -0\ni: *x\nj: [!!binary aGk=]\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := doc.Decode(&v); err != nil {
		t.Fatal(err)
	}
	got := UpstreamScalars(doc.Content[0], v)
	want := map[string]any{"a": int64(0), "b": 0, "c": []any{int64(0), 1, map[string]any{"d": int64(0)}}, "e": "-0", "f": int64(0), "g": -1, "h": int64(0), "i": int64(0), "j": []any{[]byte("hi")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UpstreamScalars = %#v\nwant %#v", got, want)
	}
}
