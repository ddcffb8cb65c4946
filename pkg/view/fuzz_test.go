package view

import (
	"errors"
	"testing"

	"kitsoki/pkg/story"
)

// FuzzRender renders arbitrary view text through every view form and
// element kind: it must never panic, hang or report an internal error.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"", "plain", "{{ world.x }}", "{% if world.x %}a{% else %}b{% endif %}",
		"{{ world.x ? 'a' : 'b' }}", "{% for i in world.l %}{{ i }}{% endfor %}",
		"{{ world.x|upper }}", "{{ world.x ?? 'd' }}", "{% include 'nope' %}",
		"{% extends '../x' %}", "{% endcomment", "{{", "{%", "— wide 日本 text - with-hyphens",
		"world.x != {}", "world.x", "available('go')", "len(world.l) > 0",
		"Buy {f} for {x}.", "{f}{", "{}{{f}}", "world.l", "0", "'no'",
	} {
		f.Add(s, s, byte(0))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text, guard string, kind byte) {
		kinds := []string{"prose", "heading", "code", "template", "list", "kv", "banner", "choice", "media", "bogus", "form"}
		el := &story.ViewElement{Kind: kinds[int(kind)%len(kinds)], Text: text, When: guard}
		switch el.Kind {
		case "form":
			el.Kind = "choice"
			el.Body = map[string]any{"mode": "form", "prompt": text, "template": text, "fields": map[string]any{
				"f": map[string]any{"placeholder": text, "default": text, "when": guard, "type": text},
				"x": map[string]any{"readonly": true, "expr": guard}}}
		case "list":
			el.Body = map[string]any{"items": []any{text, map[string]any{"label": text, "hint": text, "when": guard}}, "marker": text}
		case "kv":
			el.Body = map[string]any{"pairs": map[string]any{text: text, "k": text}}
		case "banner":
			el.Body = map[string]any{"text": text, "subtitle": text}
		case "choice":
			el.Body = map[string]any{"mode": text, "prompt": text, "items": []any{map[string]any{"label": text, "hint": text, "when": guard, "param": map[string]any{"placeholder": text}}},
				"fields": map[string]any{"f": map[string]any{"label": text}}}
		case "media":
			el.Body = map[string]any{"handle": text, "caption": text, "path": text}
		}
		views := []*story.View{
			{Kind: "template", Template: text},
			{Kind: "elements", Elements: []*story.ViewElement{el, nil}},
			{Kind: "extends", Extends: text, Blocks: map[string][]*story.ViewElement{text: {el}}, BlockOrder: []string{text}},
			{Kind: "template_file", TemplateFile: text},
		}
		for _, v := range views {
			s := &story.State{Name: "s", Path: "s", View: v}
			st := &story.Story{Dir: dir, States: []*story.State{s}}
			r := newRenderer(st)
			world := map[string]any{"x": text, "l": []any{text, 1, nil}}
			for _, p := range []string{"s", "s#s|s", text} {
				_, err := r.RenderView(p, world, map[string]any{transitionViewKey: ""})
				var ve *Error
				if errors.As(err, &ve) && ve.Internal {
					t.Fatalf("internal error for %q / %q: %v", text, guard, err)
				}
			}
		}
	})
}
