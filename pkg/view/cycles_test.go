package view

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// A template that includes itself (directly, through another file, or
// through an extends chain) would make pongo2 recurse until the Go stack
// overflows; the renderer refuses it with an error naming the chain.
// (The story is built in memory: loading it with pkg/story would compile
// the same templates.)
func TestIncludeCycles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"self.pongo":          `A {% include "self.pongo" %}`,
		"a.pongo":             `A {% include 'b.pongo' %}`,
		"b.pongo":             `B {%- include "partials/c.pongo" -%}`,
		"partials/c.pongo":    `C {% include "a.pongo" %}`,
		"ext.pongo":           `{% extends "ext2.pongo" %}`,
		"ext2.pongo":          `{% extends "ext.pongo" %}{% block x %}{% endblock %}`,
		"ok.pongo":            `OK {% include "partials/leaf.pongo" %} {% include "partials/leaf.pongo" %}`,
		"partials/leaf.pongo": `leaf`,
	}
	const maxDepth = 32 // the loader's include depth limit
	for i := 0; i < maxDepth+3; i++ {
		files[filepathf("deep%d.pongo", i)] = `{% include "` + filepathf("deep%d.pongo", i+1) + `" %}`
	}
	files[filepathf("deep%d.pongo", maxDepth+3)] = "bottom"
	deep := "deep0.pongo"
	storytest.WriteTree(t, filepath.Join(dir, "views"), files)
	state := func(name string, v *story.View) *story.State {
		return &story.State{Name: name, Path: name, View: v}
	}
	st := &story.Story{Dir: dir, States: []*story.State{
		state("self", &story.View{Kind: "template_file", TemplateFile: "self.pongo"}),
		state("ring", &story.View{Kind: "template_file", TemplateFile: "a.pongo"}),
		state("inline", &story.View{Kind: "template", Template: `x {% include "b.pongo" %}`}),
		state("extends", &story.View{Kind: "extends", Extends: "ext"}),
		state("deep", &story.View{Kind: "template_file", TemplateFile: deep}),
		state("ok", &story.View{Kind: "template_file", TemplateFile: "ok.pongo"}),
	}}
	r := newRenderer(st)
	for path, want := range map[string]string{
		"self":    "includes itself",
		"ring":    "includes itself",
		"inline":  "includes itself",
		"extends": "includes itself",
		"deep":    "more than 32 deep",
	} {
		out, err := r.RenderView(path, nil, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %q, %v; want an error containing %q", path, out, err, want)
		}
	}
	if got, err := r.RenderView("ok", nil, nil); err != nil || got != "OK leaf leaf" {
		t.Errorf("ok: %q %v", got, err)
	}
}

func filepathf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
