package fold

import (
	"regexp"
	"testing"

	"kitsoki/pkg/story"
)

// childRewriter is the rewriter of the own states of a child imported as
// alias by a top story, the child declaring the world keys world.
func childRewriter(fs *folder, alias string, world ...string) *rewriter {
	top := &node{}
	k := &node{parent: top, im: &story.Import{Alias: alias}, chain: alias, pre: alias + "__", at: alias + ".", depth: 1, world: map[string]bool{}}
	for _, w := range world {
		k.world[w] = true
	}
	top.kids, top.byAlias = []*node{k}, map[string]*node{alias: k}
	return &rewriter{fs: fs, m: k}
}

func TestWorldReferenceRewrite(t *testing.T) {
	rw := childRewriter(nil, "sub", "x", "bandits__y")
	for in, want := range map[string]string{
		"{{ world.x }}":                     "{{ world.sub__x }}",
		"{{world.x}}":                       "{{world.sub__x}}",
		"world.x > 1 && !world.x":           "world.sub__x > 1 && !world.sub__x",
		"world.x.field":                     "world.sub__x.field",
		"world.xx":                          "world.xx", // not declared by the child
		"world.parent_key":                  "world.parent_key",
		"myworld.x":                         "myworld.x",
		"slots.world.x":                     "slots.world.x",
		"{% for i in world.bandits__y %}":   "{% for i in world.sub__bandits__y %}",
		"(world.x ?? 0) + world.last_error": "(world.sub__x ?? 0) + world.last_error",
		"no references":                     "no references",
		"world.x,world.x":                   "world.sub__x,world.sub__x",
	} {
		if got := rw.text(in); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"x": "sub__x", "x.a.b": "sub__x.a.b", "last_error": "last_error", "other": "other"} {
		if got := rw.key(in); got != want {
			t.Errorf("key(%q) = %q, want %q", in, got, want)
		}
	}
}

// worldRef is the regexp text was first written with: a world.<key>
// reference not preceded by an identifier character or a dot.
var worldRef = regexp.MustCompile(`(^|[^A-Za-z0-9_.])world\.([A-Za-z_][A-Za-z0-9_]*)`)

// FuzzWorldReferenceRewrite holds text to the regexp pass it was first
// written as: each match replaced by its prefix, "world." and the lifted key.
func FuzzWorldReferenceRewrite(f *testing.F) {
	for _, s := range []string{"{{ world.x }}", "world.x,world.x", "myworld.x", "slots.world.x", "world.xx world.x.y", "world.", "(world.x ?? 0) + world.last_error", "world.bandits__y",
		"world.1x world._x", "xworld.x .world.x _world.x 9world.x", "é world.x", "world.world.x", "world.x.world.x", "a-world.x+world.x", "\xffworld.x"} {
		f.Add(s)
	}
	rw := childRewriter(nil, "sub", "x", "bandits__y")
	f.Fuzz(func(t *testing.T, s string) {
		want := worldRef.ReplaceAllStringFunc(s, func(m string) string {
			sub := worldRef.FindStringSubmatch(m)
			return sub[1] + "world." + liftWorld(rw.m, sub[2])
		})
		if got := rw.text(s); got != want {
			t.Fatalf("text(%q) = %q, the regexp pass gives %q", s, got, want)
		}
	})
}

func TestTargetRule(t *testing.T) {
	rw := childRewriter(&folder{}, "a")
	owner := &story.State{Name: "s", Path: "a.s"}
	for _, c := range []struct {
		t     string
		depth int
		want  string
	}{
		{"", 0, ""}, {".", 2, "."}, {"x", 0, "../x"}, {"x", 2, "../../../x"},
		{"a.b", 1, "a.b"}, {"a/b", 0, "a/b"}, {"../x", 0, "../x"}, {"../../x", 1, "../../x"},
		{"{{ world.t }}", 0, "{{ world.t }}"},
	} {
		if got := rw.target(c.t, c.depth, owner.Pos, owner, nil); got != c.want {
			t.Errorf("target(%q, depth %d) = %q, want %q", c.t, c.depth, got, c.want)
		}
	}
	if errs := rw.m.targetErrs; len(errs) != 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	rw.target("../../x", 0, owner.Pos, owner, nil)
	rw.target("@exit:nope", 0, owner.Pos, owner, nil)
	if errs := rw.m.targetErrs; len(errs) != 2 {
		t.Fatalf("want 2 errors (climb, unmapped exit), got %v", errs)
	}
}
