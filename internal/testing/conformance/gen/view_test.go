package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The view stories gen writes are the same bytes for the same seed, all
// load (the generator avoids the forms upstream refuses), and their
// fixtures run every turn, so each state's view renders.
func TestViewStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeView(d, n, s, false) }, n, 11, "000/app.yaml", "001/flows/f.yaml", "001/views/layout.pongo", "000/views/tf.pongo")
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, dg := range ds {
			t.Errorf("%s: %s", d, dg.Message)
		}
		files = append(files, fs...)
	}
	if len(files) != n {
		t.Fatalf("%d of %d stories loaded", len(files), n)
	}
	turns := 0
	for _, r := range flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files) {
		if r.Fatal != nil {
			t.Errorf("%s: %s", r.Story, r.Fatal.Message)
			continue
		}
		for _, tr := range r.Flow.Turns {
			if strings.Contains(tr.View, "internal error") {
				t.Errorf("%s: %s", r.Story, tr.View)
			}
		}
		turns += len(r.Flow.Turns)
	}
	// every story visits its 8 targets
	if turns < n*8 {
		t.Errorf("%d turns over %d stories", turns, n)
	}
}
