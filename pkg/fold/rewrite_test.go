package fold

import (
	"testing"

	"kitsoki/pkg/story"
)

func TestWorldReferenceRewrite(t *testing.T) {
	rw := &rewriter{alias: "sub", world: map[string]bool{"x": true, "bandits__y": true}}
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

func TestTargetRule(t *testing.T) {
	fs := &folder{}
	rw := &rewriter{fs: fs, alias: "a", chain: "a"}
	owner := &story.State{Name: "s", Path: "s"}
	for _, c := range []struct {
		t     string
		depth int
		want  string
	}{
		{"", 0, ""}, {".", 2, "."}, {"x", 0, "../x"}, {"x", 2, "../../../x"},
		{"a.b", 1, "a.b"}, {"a/b", 0, "a/b"}, {"../x", 0, "../x"}, {"../../x", 1, "../../x"},
		{"{{ world.t }}", 0, "{{ world.t }}"},
	} {
		if got, _ := rw.target(c.t, c.depth, owner.Pos, owner); got != c.want {
			t.Errorf("target(%q, depth %d) = %q, want %q", c.t, c.depth, got, c.want)
		}
	}
	if len(fs.errs) != 0 {
		t.Fatalf("unexpected errors: %v", fs.errs)
	}
	rw.target("../../x", 0, owner.Pos, owner)
	rw.target("@exit:nope", 0, owner.Pos, owner)
	if len(fs.errs) != 2 {
		t.Fatalf("want 2 errors (climb, unmapped exit), got %v", fs.errs)
	}
}
