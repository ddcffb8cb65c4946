package fold

import (
	"strings"
	"testing"
)

// textRegexp is rewriter.text done with worldRef's replacement (the
// reference text is checked against).
func (rw *rewriter) textRegexp(s string) string {
	if !strings.Contains(s, "world.") {
		return s
	}
	return worldRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := worldRef.FindStringSubmatch(m)
		if !rw.world[sub[2]] {
			return m
		}
		return sub[1] + "world." + rw.alias + "__" + sub[2]
	})
}

var textSeeds = []string{
	"", "world.", "world.x", "{{ world.x }}", "world.x world.y", "world.x,world.y", "foo.world.x",
	"myworld.x", "_world.x", "1world.x", "(world.x)", "world.1x", "world._x", "world.x1.y",
	"world.world.x", "world.xx", "a world. x", "world.world.", "world.x.world.x", "é world.x",
	"\xc3world.x", "\xffworld.x", "é.world.x", "world.xworld.x", "world.x-world.y", "world.unknown world.x",
	"{{ world.x ?? world.y }} {% if world.x %}world.x{% endif %}", "wworld.x", "world.x\nworld.y",
}

// TestTextMatchesRegexp checks the hand scanner of world references
// against the regular expression it stands for.
func TestTextMatchesRegexp(t *testing.T) {
	rw := &rewriter{alias: "sub", world: map[string]bool{"x": true, "y": true, "world": true, "_x": true, "x1": true}}
	for _, s := range textSeeds {
		if got, want := rw.text(s), rw.textRegexp(s); got != want {
			t.Errorf("text(%q) = %q, want %q", s, got, want)
		}
	}
	if got := rw.text("{{ world.x }} {{ world.z }}"); got != "{{ world.sub__x }} {{ world.z }}" {
		t.Errorf("text renamed %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s)
	}
	rw := &rewriter{alias: "sub", world: map[string]bool{"x": true, "y": true, "world": true, "_x": true, "x1": true, "a": true}}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := rw.text(s), rw.textRegexp(s); got != want {
			t.Errorf("text(%q) = %q, want %q", s, got, want)
		}
	})
}
