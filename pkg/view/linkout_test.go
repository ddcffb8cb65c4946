package view

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// TestViewFileLinkedOutTellsNothingOfItsTarget: a template_file or an
// extends layout named by a template (world.f: unchecked at load) that is
// a symlink leading out of the story was stat'ed by its path before the
// confined read: a link to a missing path or to a directory was "not
// found", one to a file the outside-root refusal, so a story could probe
// which paths exist on the machine running it. The answer is now the same
// refusal whatever lies outside, and nothing there is read.
func TestViewFileLinkedOutTellsNothingOfItsTarget(t *testing.T) {
	outside, targets := storytest.LinkOutTargets(t)
	got := storytest.SameForEveryTarget(t, outside, targets, func(target string) string {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "views"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, "views", "t.pongo")); err != nil {
			t.Fatal(err)
		}
		st := &story.Story{Dir: dir, States: []*story.State{
			{Name: "file", Path: "file", View: &story.View{Kind: "template_file", TemplateFile: "{{ world.f }}"}},
			{Name: "ext", Path: "ext", View: &story.View{Kind: "extends", Extends: "{{ world.l }}"}},
		}}
		var out []string
		for _, path := range []string{"file", "ext"} {
			got, err := newRenderer(st).RenderView(path, map[string]any{"f": "t.pongo", "l": "t"}, nil)
			if err == nil {
				t.Fatalf("%s through a link to %s rendered %q", path, target, got)
			}
			out = append(out, strings.ReplaceAll(err.Error(), dir, "DIR"))
		}
		return strings.Join(out, "\n")
	})
	if !strings.Contains(got, "leading out") {
		t.Errorf("want the outside refusal, got:\n%s", got)
	}
}
