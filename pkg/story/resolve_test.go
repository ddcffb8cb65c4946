package story

import "testing"

// ResolvePath is the one resolver the loader and the engine share; these
// are upstream's results (story-runtime.md §1.6, §2.4).
func TestResolvePathUpstreamForms(t *testing.T) {
	for _, tc := range []struct{ base, target, want string }{
		{"a.b", "", "a.b"},
		{"a.b", ".", "a.b"},
		{"a.b", "c", "c"},
		{"a.b", "x/y", "x.y"},
		{"a.b", "x.y", "x.y"},
		{"a.b", "../c", "a.c"},
		{"a.b", "../../c", "c"},
		{"a.b", "..", "a"},
		{"a.b", "../c/d", "a.c.d"},
		{"a.b", ".././c", "a.c"},
		{"a.b", "..c", "a.b...c"}, // one segment "..c", appended: no such state
		{"p#p.a.a1|p.b.b1", "../error", "p#p.a.a1|p.b.error"},
	} {
		got, err := ResolvePath(tc.base, tc.target)
		if err != nil || got != tc.want {
			t.Errorf("ResolvePath(%q, %q) = %q, %v; want %q", tc.base, tc.target, got, err, tc.want)
		}
	}
	if _, err := ResolvePath("a", "../../x"); err == nil {
		t.Error("climbing above the top level is an error")
	}
}
