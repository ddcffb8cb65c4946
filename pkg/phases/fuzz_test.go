package phases

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// FuzzText: substitution of any template text never panics, is
// deterministic, leaves text without '{' untouched, and replaces every
// {known} placeholder that is not part of a tag.
func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "plain", "{id}_s", "{{ tpl.title }}", "{{- tpl.n -}} x", "{{ phase.next.go }}", "{{ phase.id }}",
		"{% if tpl.n > 3 %}{id}{% endif %}", "{{ world.{id}_x }}", "{{", "{%", "}}", "{", "}", "{{{id}}}",
		"{{ tpl.title | upper }}", "world.n < {budget}", "{unknown}", `json {"k": 1}`, "{{ tpl.", "{{ tpl.x }",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, key bool) {
		mk := func() *binding {
			return &binding{id: "a", params: map[string]any{"id": "a", "phase_id": "a", "title": "T", "n": 4, "budget": 2},
				unset: map[string]bool{"note": true}, next: map[string]any{"go": "b"}, probs: &problems{}, where: `phases.graph["a"]`}
		}
		b1, b2 := mk(), mk()
		got := b1.text(s, story.Pos{}, key)
		if again := b2.text(s, story.Pos{}, key); again != got || len(b1.probs.list) != len(b2.probs.list) {
			t.Fatalf("not deterministic: %q vs %q", got, again)
		}
		if !strings.Contains(s, "{") && got != s {
			t.Fatalf("text without placeholders changed: %q -> %q", s, got)
		}
		if !strings.Contains(s, "{{") && !strings.Contains(s, "{%") && strings.Contains(got, "{id}") {
			t.Fatalf("{id} left in %q (from %q)", got, s)
		}
	})
}
