package phases

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// FuzzText: substitution of any template text never panics, is
// deterministic, leaves text without '{' untouched, leaves no known
// {name} in a state key and no known {{ tpl.x }} in a body.
func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "plain", "{id}_s", "{{ tpl.title }}", "{{- tpl.n -}} x", "{{ phase.next.go }}", "{{ phase.id }}",
		"{% if tpl.n > 3 %}{id}{% endif %}", "{{ world.{id}_x }}", "{{", "{%", "}}", "{", "}", "{{{id}}}",
		"{{ tpl.title | upper }}", "world.n < {budget}", "{unknown}", `json {"k": 1}`, "{{ tpl.", "{{ tpl.x }",
		"{{ int({{ tpl.n }} * 3) }}", "{{tpl.title}}{{tpl.title}}", "{{ phase.next.skip }}",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, key bool) {
		mk := func() *binding {
			return &binding{params: map[string]any{"id": "a", "title": "T", "n": 4, "budget": 2},
				next: map[string]any{"go": "b"}, probs: &problems{}, where: `phases.graph["a"]`}
		}
		b1, b2 := mk(), mk()
		sub := func(b *binding) string {
			if key {
				return b.key(s, story.Pos{})
			}
			out, _ := b.bodyIf(s, nil)
			return out
		}
		got := sub(b1)
		if again := sub(b2); again != got || len(b1.probs.list) != len(b2.probs.list) {
			t.Fatalf("not deterministic: %q vs %q", got, again)
		}
		if !key {
			// the substitution as first written: a regexp pass calling ref per tag
			want := bodyRefRe.ReplaceAllStringFunc(s, func(m string) string {
				sub := bodyRefRe.FindStringSubmatch(m)
				return b1.ref(m, sub[1], sub[2])
			})
			if got != want {
				t.Fatalf("body(%q) = %q, the regexp pass gives %q", s, got, want)
			}
			if n, ok := b1.bodyIf(s, func(n int) bool { return false }); len(got) != len(s) && (ok || n != "") {
				t.Fatalf("bodyIf(%q) built %q though its length was refused", s, n)
			}
		}
		if !strings.Contains(s, "{") && got != s {
			t.Fatalf("text without placeholders changed: %q -> %q", s, got)
		}
		if key && strings.Contains(got, "{id}") {
			t.Fatalf("{id} left in key %q (from %q)", got, s)
		}
		if !key && (strings.Contains(got, "{{ tpl.title }}") || strings.Contains(got, "{{ phase.next.go }}")) {
			t.Fatalf("a known reference left in %q (from %q)", got, s)
		}
	})
}
