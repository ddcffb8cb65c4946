package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/story/expr"
)

// The template stories gen writes are the same bytes for the same seed;
// most of them load (the rest fail with a positioned diagnostic, never Go
// runtime text), and those that load run their turns.
func TestTemplateStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeTmpl(d, n, s, false, false) }, n, 7, "000/app.yaml", "001/flows/f.yaml", "001/views/inc.pongo")
	files := discoverStories(t, dir, n) // one fixture file a story
	refused := n - len(files)
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

// The included file holds a ` ?? ` inside a tag only with -known: upstream
// parses a file as written and stops its run there (hunt55 tmpl-187,
// hunt60 693140), so a plain batch writes the |default: it stands for.
func TestTemplateIncludeCoalesceOnlyKnown(t *testing.T) {
	t.Parallel()
	const n = 60
	count := func() int {
		d := t.TempDir()
		if err := writeTmpl(d, n, 693000, false, false); err != nil {
			t.Fatal(err)
		}
		c := 0
		for i := range n {
			b, err := os.ReadFile(filepath.Join(d, fmt.Sprintf("%03d", i), "views", "inc.pongo"))
			if err != nil {
				t.Fatal(err)
			}
			if line, _ := expr.CoalesceInTag(string(b)); line > 0 {
				c++
			}
		}
		return c
	}
	if c := count(); c != 0 {
		t.Errorf("%d of %d included files hold a ?? in a tag without -known", c, n)
	}
	known := func(d string, n int, seed uint64) error { return writeTmpl(d, n, seed, false, true) }
	if !storiesUntil(t, known, 693000, n, func(d string) bool {
		b, err := os.ReadFile(filepath.Join(d, "000", "views", "inc.pongo"))
		if err != nil {
			t.Fatal(err)
		}
		line, _ := expr.CoalesceInTag(string(b))
		return line > 0
	}) {
		t.Errorf("no included file of %d holds a ?? in a tag with -known: the draw is gone", n)
	}
}
