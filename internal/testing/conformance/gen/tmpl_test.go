package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The template stories gen writes are the same bytes for the same seed;
// most of them load (the rest fail with a positioned diagnostic, never Go
// runtime text), and those that load run their turns.
func TestTemplateStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeTmpl(d, n, s, false) }, n, 7, "000/app.yaml", "001/flows/f.yaml", "001/views/inc.pongo")
	var files []*flowtest.File
	refused := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.Discover([]string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, dg := range ds {
			if goText.MatchString(dg.Message) {
				t.Errorf("%s: %s", d, dg.Message)
			}
		}
		if len(fs) == 0 {
			refused++
		}
		files = append(files, fs...)
	}
	if refused > n/2 {
		t.Errorf("%d of %d stories do not load; the generator draws too many ill-typed expressions", refused, n)
	}
	turns := 0
	for _, r := range flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files) {
		if r.Fatal != nil {
			if strings.Contains(r.Fatal.Message, "panic") {
				t.Errorf("%s: %s", r.Story, r.Fatal.Message)
			}
			refused++
			continue
		}
		turns += len(r.Flow.Turns)
	}
	t.Logf("%d stories, %d refused, %d turns", n, refused, turns)
	if refused > n/2 || turns < (n-refused)*3 {
		t.Errorf("%d turns ran over %d stories (%d refused)", turns, n, refused)
	}
}
