package flowtest

import (
	"path/filepath"
	"testing"

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
