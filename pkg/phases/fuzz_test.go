package phases

import (
	"errors"
	"os"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/lint"
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
			return &binding{id: "a", params: map[string]any{"id": "a", "title": "T", "n": 4, "budget": 2},
				next: map[string]any{"go": "b"}, probs: &problems{}, where: `phases.graph["a"]`}
		}
		b1, b2 := mk(), mk()
		sub := func(b *binding) string {
			if key {
				return b.key(s, story.Pos{})
			}
			return b.body(s)
		}
		got := sub(b1)
		if again := sub(b2); again != got || len(b1.probs.list) != len(b2.probs.list) {
			t.Fatalf("not deterministic: %q vs %q", got, again)
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

// FuzzExpand: any phases:/phase_templates: the loader gives a model for
// expands or fails with positioned problems, never panics, and a failed
// expansion leaves the story as it was.
func FuzzExpand(f *testing.F) {
	for _, dir := range []string{"phases-full", "phases-params", "phases-template-values"} {
		if data, err := os.ReadFile(upstream + dir + "/app.yaml"); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(head + "phase_templates: {t: {states: {\"{id}\": {}}}}\nphases: {template: t, graph: {start: {}}}\n")
	f.Add(head + "phase_templates: {t: {parameters: {a: {required: true}}, states: {\"{x}\": {view: \"{{ tpl.b }}\"}}}}\nphases: {template: t, graph: {p: {next: 3}, q: ~}}\n")
	f.Fuzz(func(t *testing.T, yaml string) {
		st, _ := lint.LoadBytes("app.yaml", []byte(yaml), story.Options{LookupEnv: storyload.NoEnv})
		if st == nil {
			return
		}
		n, had := len(st.States), st.Phases != nil
		err := Expand(st)
		if err == nil {
			if st.Phases != nil {
				t.Fatal("phases: left after a successful expansion")
			}
			return
		}
		var pe *Error
		if !errors.As(err, &pe) || len(pe.Problems) == 0 {
			t.Fatalf("error without problems: %v", err)
		}
		if len(st.States) != n || (st.Phases != nil) != had {
			t.Fatal("a failed expansion changed the story")
		}
	})
}
