package view

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// A view file (a template_file, an extends layout) is looked up on disk
// once per renderer, as its compiled template is kept: later renders
// neither stat nor read it again, so they render the same even after the
// file is gone.
func TestViewFileFoundOncePerRenderer(t *testing.T) {
	dir := t.TempDir()
	storytest.WriteTree(t, filepath.Join(dir, "views"), map[string]string{
		"page.pongo": `page {{ world.n }}`,
		"base.pongo": `[{% block body %}{% endblock %}]`,
	})
	st := &story.Story{Dir: dir, States: []*story.State{
		{Name: "file", Path: "file", View: &story.View{Kind: "template_file", TemplateFile: "page.pongo"}},
		{Name: "ext", Path: "ext", View: &story.View{Kind: "extends", Extends: "base",
			Blocks: map[string][]*story.ViewElement{"body": {{Kind: "prose", Text: "hi {{ world.n }}"}}}}},
	}}
	r := newRenderer(st)
	want := map[string]string{"file": "page 1", "ext": "[hi 1]"}
	for path, w := range want {
		if got, err := r.RenderView(path, map[string]any{"n": 1}, nil); err != nil || got != w {
			t.Fatalf("%s: %q %v, want %q", path, got, err, w)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "views")); err != nil {
		t.Fatal(err)
	}
	for path, w := range want {
		if got, err := r.RenderView(path, map[string]any{"n": 1}, nil); err != nil || got != w {
			t.Errorf("%s after the file is gone: %q %v, want %q", path, got, err, w)
		}
	}
	// A new renderer (a new run) looks again and finds nothing.
	if _, err := newRenderer(st).RenderView("file", nil, nil); err == nil {
		t.Error("a new renderer rendered a file that is gone")
	}
}
