package testrun

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSetApps: a story directory expands to its app.yaml with --flows
// relative to it; `test flows DIR` takes the directory's app.yaml with
// upstream's default glob (its flows/ directory), relative to the
// current directory, and refuses a path that does not exist.
func TestSetApps(t *testing.T) {
	app := writeStory(t, map[string]string{"a.yaml": fixture})
	dir := filepath.Dir(app)
	var warned []string
	p := &Plan{}
	if err := p.SetApps([]string{dir}, "custom/*.yaml", func(w string) { warned = append(warned, w) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Apps, []string{app}) || p.Glob != "custom/*.yaml" || !p.Rel || len(warned) != 0 {
		t.Errorf("plain: apps %q glob %q rel %v warnings %q; want [%s] custom/*.yaml true none", p.Apps, p.Glob, p.Rel, warned, app)
	}
	up := &Plan{Upstream: true}
	if err := up.SetApps([]string{dir}, "", nil); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "flows", "*.yaml"); !slices.Equal(up.Apps, []string{app}) || up.Glob != want || up.Rel {
		t.Errorf("upstream: apps %q glob %q rel %v; want [%s] %s false", up.Apps, up.Glob, up.Rel, app, want)
	}
	missing := filepath.Join(dir, "nowhere-story.yaml")
	err := (&Plan{Upstream: true}).SetApps([]string{missing}, "", nil)
	if err == nil || err.Error() != missing+": no such file or directory; give the story directory or its app.yaml" {
		t.Errorf("upstream, missing story: %v", err)
	}
	if err := (&Plan{}).SetApps([]string{missing}, "", nil); err == nil || !strings.Contains(err.Error(), "nowhere-story.yaml") {
		t.Errorf("plain, missing story: %v, want an error naming it", err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("%s exists: %v", missing, err)
	}
}
