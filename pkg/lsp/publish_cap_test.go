package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// manyFindingsStory has n states each with one error (a string where a
// list of transitions goes) and, but the root, one warning (unreachable).
func manyFindingsStory(n int) string {
	var b strings.Builder
	b.WriteString("app: {id: many, version: 0.1.0}\nintents:\n  go: {title: go}\nroot: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  s%d:\n    on:\n      go: nowhere%d\n", i, i)
	}
	return b.String()
}

// A workspace story with thousands of findings gets one bounded publish:
// the first maxPublished-1 findings, errors first, each at its place, and
// one note counting the rest and naming the command that lists them all.
// (Uncapped, 10^5 findings in a 4 MB file kept the server busy for more
// than ten minutes: each range split the whole text again.)
func TestManyFindingsArePublishedCapped(t *testing.T) {
	t.Parallel()   // its own server and temp copy
	const n = 3000 // 3000 errors + 2999 warnings
	dir := storytest.TempTree(t, map[string]string{"app.yaml": manyFindingsStory(n)})
	manifest := filepath.Join(dir, "app.yaml")
	c := startInProcess(t, Options{})
	open(c, manifest)
	p := c.waitUntil(manifest, func(p published) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) != maxPublished {
		t.Fatalf("%d diagnostics published, want %d", len(p.Diagnostics), maxPublished)
	}
	for i, d := range p.Diagnostics[:maxPublished-1] {
		if d.Severity != 1 {
			t.Fatalf("diagnostic %d has severity %d, want the errors first: %+v", i, d.Severity, d)
		}
	}
	// s0's error sits at line 8 (0-based 7), column 11 (0-based 10)
	if first := p.Diagnostics[0]; first.Range.Start.Line != 7 || first.Range.Start.Character != 10 {
		t.Errorf("first finding at %+v, want line 7 character 10", first.Range.Start)
	}
	last := p.Diagnostics[maxPublished-1]
	want := fmt.Sprintf("%d more findings in this file are not shown", 2*n-1-(maxPublished-1))
	if last.Code != "more-findings" || !strings.Contains(last.Message, want) || !strings.Contains(last.Message, "kitsoki validate app.yaml") {
		t.Errorf("last diagnostic %+v, want the note %q", last, want)
	}
}
