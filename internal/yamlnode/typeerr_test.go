package yamlnode

import (
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

type typeErrTarget struct {
	Name  string            `yaml:"name"`
	Steps []struct{ A int } `yaml:"steps"`
	Opts  map[string]bool   `yaml:"opts"`
	Inner *struct {
		Events []any `yaml:"events"`
	} `yaml:"inner"`
	Wait time.Duration `yaml:"wait"`
	F    float64       `yaml:"f"`
}

// ErrText is a yaml.v3 error on one line without its prefix: a
// *yaml.TypeError's lines joined, a syntax error as yaml.v3 words it.
func TestErrTextOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"opts: {a: maybe}\ninner: 4\n": "line 1: cannot unmarshal !!str `maybe` into bool; line 2: cannot unmarshal !!int `4` into struct { Events []interface {} \"yaml:\\\"events\\\"\" }",
		"f: \"a\\nb\"\n":               "line 1: cannot unmarshal !!str `a\\nb` into float64",
		"name: [1\n":                   "line 1: did not find expected ',' or ']'",
	} {
		var v typeErrTarget
		err := yaml.Unmarshal([]byte(in), &v)
		if err == nil {
			t.Fatalf("%q decoded", in)
		}
		if got := ErrText(err); got != want {
			t.Errorf("ErrText(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}

// A mapping or list used as a key is found at its place, through an alias
// too (WrittenComplexKey: not through an alias, as upstream's parser takes
// one); a scalar key or a mapping value is not one. want is the line of
// each finder's key (0: none).
func TestComplexKey(t *testing.T) {
	for in, want := range map[string][2]int{
		"a: {b: {c: 1}}\n":                {0, 0},
		"a: [{x: 1}, {y: {{}: 1}}]\n":     {1, 1},
		"x: &m {a: 1}\ny:\n  *m : 2\n":    {3, 0},
		"a:\n  ? [1, 2]\n  : v\n":         {2, 2},
		"p: [{}]\nq: {<<: , e: {}, {}}\n": {2, 2},
		"x: [1]\ny:\n  ? {a: 1}\n  : 2\n": {3, 3},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(in), &doc); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		for i, find := range []func(*yaml.Node) *yaml.Node{ComplexKey, WrittenComplexKey} {
			got := 0
			if k := find(&doc); k != nil {
				got = k.Line
			}
			if got != want[i] {
				t.Errorf("finder %d (ComplexKey, WrittenComplexKey) on %q: line %d, want %d", i, in, got, want[i])
			}
		}
	}
}
