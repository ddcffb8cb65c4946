package yamlnode

import (
	"fmt"
	"math"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The story and fixture readings agree on plain scalars, 0X and a
// `!!bool`'s words, as upstream's decoders do, and part in the integer
// type that marks `-0`, a `!!bool` upstream refuses, and a tagged
// number's underscores and signed NaN.
func TestScalarsStoryAndFixture(t *testing.T) {
	for _, c := range []struct {
		doc            string
		story, fixture any
	}{
		{"5", 5, int64(5)},
		{"-0", int64(0), 0},
		{"10000000000000000000", uint64(10000000000000000000), uint64(10000000000000000000)},
		{"0X1F", "0X1F", "0X1F"},
		{"-0B11", "-0B11", "-0B11"},
		{"0x1F", 31, int64(31)},
		{"!!int 0o-5", "0o-5", int64(-5)},
		{"!!int 1__0.5", "1__0.5", 10.5},
		{"!!bool yes", true, true},
		{"!!bool nO", false, false},
		{"!!bool 1", true, true},
		{"!!bool T", true, true},
		{"!!bool on", false, "on"},
		{"!!bool y", false, "y"},
		{"true", true, true},
		{"!!float 1__000.5", "1__000.5", 1000.5},
		{"!!float -.nan", math.NaN(), "-.nan"},
		{".inf", math.Inf(1), math.Inf(1)},
		{"+.inf", "+.inf", "+.inf"},
		{"1e3", "1e3", "1e3"},
		{"~", nil, nil},
		{"!!binary aGk=", []byte("hi"), []byte("hi")},
		{"!!str 5", "5", "5"},
	} {
		var d yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+c.doc), &d); err != nil {
			t.Fatal(err)
		}
		n := d.Content[0].Content[1]
		for _, r := range []struct {
			d    Scalars
			want any
		}{{StoryScalars, c.story}, {FixtureScalars, c.fixture}} {
			if got := r.d.Value(n); !sameValue(got, r.want) {
				t.Errorf("%d %q: %T %#v, want %T %#v", r.d, c.doc, got, got, r.want, r.want)
			}
		}
	}
}

func sameValue(a, b any) bool {
	if fa, ok := a.(float64); ok && math.IsNaN(fa) {
		fb, ok := b.(float64)
		return ok && math.IsNaN(fb)
	}
	return fmt.Sprintf("%T %#v", a, a) == fmt.Sprintf("%T %#v", b, b)
}
