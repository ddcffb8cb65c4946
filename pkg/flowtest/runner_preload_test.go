package flowtest

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/pkg/compose"

	"kitsoki/internal/testing/storytest"
)

// Preload loads every story once, -j at a time: what Story returns
// afterwards is what Preload loaded (the files are not read again), and a
// story that does not load keeps its error.
func TestPreloadLoadsEachStoryOnce(t *testing.T) {
	good := "app: { id: preload, version: 0.1.0 }\nroot: start\nstates:\n  start: {}\n"
	dir := storytest.TempTree(t, map[string]string{
		"a/app.yaml":   good,
		"b/app.yaml":   good,
		"bad/app.yaml": "states: [not a story\n",
	})
	apps := []string{filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "b", "app.yaml"), filepath.Join(dir, "bad", "app.yaml")}
	r := NewRunner(Options{Jobs: 2})
	r.Preload(append(apps, apps[0]))
	for _, app := range apps[:2] {
		storytest.WriteFile(t, app, "states: [broken after the load\n")
		ld, err := r.Story(app)
		if err != nil || ld == nil || ld.Machine == nil {
			t.Fatalf("%s: %v (not the preloaded story)", app, err)
		}
	}
	if ld, err := r.Story(apps[2]); err == nil || ld != nil {
		t.Fatalf("bad story: %v %v", ld, err)
	}
}

// A story load that panics (no input is known to) neither kills the
// process from Preload's goroutine nor passes: each of the story's
// fixtures fails with panicked's wording, its stack written once to
// Options.Stderr.
func TestPreloadSurvivesAPanickingLoad(t *testing.T) {
	var stderr strings.Builder
	r := NewRunner(Options{Jobs: 2, Stderr: &stderr})
	r.stories["boom.yaml"] = &storyEntry{load: sync.OnceValues(func() (*compose.Loaded, error) { panic("load exploded") })}
	r.Preload([]string{"boom.yaml", "boom.yaml"})
	res := r.RunFixture(context.Background(), &Fixture{File: "f.yaml", Story: "boom.yaml"})
	want := "running fixture f.yaml: the test runner panicked: load exploded (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"
	if res.Fatal == nil || res.Fatal.Message != want || res.Passed() {
		t.Fatalf("fixture of a panicking story: %+v\nwant %s", res.Fatal, want)
	}
	if got := stderr.String(); !strings.HasPrefix(got, "kitsoki: "+want+"\n") || strings.Count(got, "[running]") != 1 {
		t.Fatalf("stderr, want the message and one stack:\n%s", got)
	}
}
