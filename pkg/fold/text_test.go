package fold

import (
	"strings"
	"testing"
)

// textCases are rewriter.text's results for a child declaring the world
// keys x, y, world, _x and x1 under the alias sub.
var textCases = []struct{ in, want string }{
	{"", ""},
	{"world.", "world."},
	{"world.x", "world.sub__x"},
	{"{{ world.x }}", "{{ world.sub__x }}"},
	{"world.x world.y", "world.sub__x world.sub__y"},
	{"world.x,world.y", "world.sub__x,world.sub__y"},
	{"foo.world.x", "foo.world.x"},
	{"myworld.x", "myworld.x"},
	{"_world.x", "_world.x"},
	{"1world.x", "1world.x"},
	{"(world.x)", "(world.sub__x)"},
	{"world.1x", "world.1x"},
	{"world._x", "world.sub___x"},
	{"world.x1.y", "world.sub__x1.y"},
	{"world.world.x", "world.sub__world.x"},
	{"world.xx", "world.xx"},
	{"a world. x", "a world. x"},
	{"world.world.", "world.sub__world."},
	{"world.x.world.x", "world.sub__x.world.x"},
	{"é world.x", "é world.sub__x"},
	{"\xc3world.x", "\xc3world.sub__x"},
	{"\xffworld.x", "\xffworld.sub__x"},
	{"é.world.x", "é.world.x"},
	{"world.xworld.x", "world.xworld.x"},
	{"world.x-world.y", "world.sub__x-world.sub__y"},
	{"world.unknown world.x", "world.unknown world.sub__x"},
	{"{{ world.x ?? world.y }} {% if world.x %}world.x{% endif %}", "{{ world.sub__x ?? world.sub__y }} {% if world.sub__x %}world.sub__x{% endif %}"},
	{"wworld.x", "wworld.x"},
	{"world.x\nworld.y", "world.sub__x\nworld.sub__y"},
}

func TestText(t *testing.T) {
	rw := childRewriter(nil, "sub", "x", "y", "world", "_x", "x1")
	for _, c := range textCases {
		if got := rw.text(c.in); got != c.want {
			t.Errorf("text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := rw.text("{{ world.x }} {{ world.z }}"); got != "{{ world.sub__x }} {{ world.z }}" {
		t.Errorf("text renamed %q", got)
	}
}

// FuzzText checks that text only ever inserts the alias prefix after a
// "world." and never changes anything else.
func FuzzText(f *testing.F) {
	for _, c := range textCases {
		f.Add(c.in)
	}
	rw := childRewriter(nil, "sub", "x", "y", "world", "_x", "x1", "a")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "sub__") {
			return
		}
		got := rw.text(s)
		if back := strings.ReplaceAll(got, "world.sub__", "world."); back != s {
			t.Errorf("text(%q) = %q: more than the prefix changed", s, got)
		}
	})
}
