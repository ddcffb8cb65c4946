package lint

import (
	"strings"
	"testing"
)

// TestKeptSpelling: the spellings of a world key the import fold leaves as
// written (it renames only world.k), found inside tags and outside quoted
// strings, with the offset of the key; pongoWorldKeys reads a block tag's
// world["k"] as world.k.
func TestKeptSpelling(t *testing.T) {
	for _, tc := range []struct {
		src, key, want string
		off            int
	}{
		{`{{ world["k"] }}`, "k", `world["k"]`, 10},
		{`{{ world.k }} {{ world['k'] }}`, "k", `world['k']`, 24},
		{`{{ world?.k }}`, "k", `world?.k`, 10},
		{`{{ world.k }}`, "k", "", -1},
		{`{{ "world['k']" }} world["k"]`, "k", "", -1}, // a string, plain text
		{`{{ world[slots.x] }}`, "k", "", -1},
		{`{% if world["k"] %}y{% endif %}`, "k", `world["k"]`, 13},
	} {
		got, off := keptSpelling(tc.src, tagReads(tc.src, true), tc.key)
		if got != tc.want || off != tc.off {
			t.Errorf("keptSpelling(%q, %q) = %q, %d; want %q, %d", tc.src, tc.key, got, off, tc.want, tc.off)
		}
	}
	keys, ok := pongoWorldKeys(`{% if world["a"] %}{{ world.b }}{% endif %}{{ world['c'] }}{{ world["1 x"] }}`)
	if !ok || strings.Join(keys, "|") != "a|b|c|1 x" {
		t.Errorf("pongoWorldKeys = %q, %v; want [a b c 1 x], true", keys, ok)
	}
	if _, ok := pongoWorldKeys(`{% with world=x %}{{ world["a"] }}{% endwith %}`); ok {
		t.Error("a template binding world is read")
	}
}

// TestHidesWorld: an include hands its file the story's world unless its
// arguments rebind world or end in only without world=world.
func TestHidesWorld(t *testing.T) {
	for args, want := range map[string]bool{
		"":                         false,
		"with x=1":                 false,
		"with x=world":             false,
		"with x=world.k only":      true,
		"only":                     true,
		"with world=other":         true,
		"with world = other only":  true,
		"with world=world only":    false,
		"with a=1 world=world":     false,
		"with x=1, world=w.inner":  true,
		"with world==1":            false,
		"with nonworld=other only": true,
		"with x=\"only\"":          false,
	} {
		if got := hidesWorld(args); got != want {
			t.Errorf("hidesWorld(%q) = %v, want %v", args, got, want)
		}
	}
}
