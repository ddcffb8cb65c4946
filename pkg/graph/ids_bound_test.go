package graph

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// An edge names its ends by identifier, and an identifier is at most
// maxIDText characters of a name: a state named with 100,000 characters
// and 2,000 arms, a 276 KB story, wrote 200 MB of DOT and of Mermaid (here
// 20,000 and 1,000: 40 MB).
func TestIdentifiersOfLongNamesAreBounded(t *testing.T) {
	long := strings.Repeat("n", 20_000)
	var b strings.Builder
	b.WriteString("app: {id: long}\nintents:\n")
	for j := range 1000 {
		fmt.Fprintf(&b, "  i%d: {}\n", j)
	}
	fmt.Fprintf(&b, "root: %s\nstates:\n  b: {}\n  ? %s\n  :\n    on:\n", long, long)
	for j := range 1000 {
		fmt.Fprintf(&b, "      i%d: [{target: b}]\n", j)
	}
	g, err := Load(writeStory(t, b.String()), story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(*strings.Builder) error{
		"dot":     func(w *strings.Builder) error { return WriteDOT(w, g, Options{}) },
		"mermaid": func(w *strings.Builder) error { return WriteMermaid(w, g, Options{}) },
	} {
		var out strings.Builder
		if err := write(&out); err != nil {
			t.Fatal(err)
		}
		if out.Len() > 1<<20 {
			t.Errorf("%s: %d bytes for %d edges, want under 1 MiB", name, out.Len(), len(g.Edges))
		}
		if !strings.Contains(out.String(), long) {
			t.Errorf("%s: the long name is not drawn whole in its label", name)
		}
	}
}

// Names that make one identifier (every non-ASCII character is an
// underscore) are numbered without trying each number before theirs:
// 3,000 such states tried 4.5 million identifiers.
func TestIdentifiersOfOneBaseAreNumberedOnce(t *testing.T) {
	const n = 3000
	var b strings.Builder
	b.WriteString("app: {id: cjk}\nroot: s0\nstates:\n  s0: {}\n")
	for i := range n {
		fmt.Fprintf(&b, "  %c%c: {}\n", 0x4e00+i/64, 0x4e00+i%64)
	}
	dir := writeStory(t, b.String())
	var g *Graph
	allocs := testing.AllocsPerRun(1, func() {
		var err error
		if g, err = Load(dir, story.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1_000_000 {
		t.Errorf("drawing %d states of one identifier made %.0f allocations, want under a million", n, allocs)
	}
	ids := map[string]bool{}
	for _, nd := range g.Nodes() {
		if ids[nd.ID] {
			t.Fatalf("identifier %s given twice", nd.ID)
		}
		ids[nd.ID] = true
	}
	if len(ids) < n {
		t.Errorf("%d identifiers, want at least %d", len(ids), n)
	}
}
