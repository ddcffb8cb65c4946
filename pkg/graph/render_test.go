package graph

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"kitsoki/internal/testing/mermaidcheck"
	"kitsoki/internal/testing/storytest"
)

// corpusStories are the shared corpus's stories (a parent, not its
// imported children alone).
var corpusStories = []string{
	"agent_probe", "background_jobs", "cloak", "conflict-resolve", "docs-review",
	"error_banner", "fix-tests", "frontier_event", "imports_smoke/parent", "inbox-demo",
	"parallel_smoke", "pr-refinement", "proposal_smoke", "robbery", "routing-demo",
	"starlark_min", "timeout", "typedview_after_bind", "weather-report",
}

func corpusDrawings(t *testing.T) []drawing {
	var out []drawing
	for _, name := range corpusStories {
		g := load(t, storytest.Corpus(t, name))
		out = append(out, draw(t, strings.ReplaceAll(name, "/", "-"), g, Options{}))
	}
	return out
}

// checkDrawings renders every DOT with the real dot and parses every
// Mermaid text with Mermaid's own parser (but the -full ones, which are
// over Mermaid's limits on purpose). bad are Mermaid texts the parser
// must refuse: the check is not vacuous.
func checkDrawings(t *testing.T, ds []drawing, bad ...string) {
	t.Helper()
	t.Run("graphviz", func(t *testing.T) {
		dot := dotProgram(t)
		for _, d := range ds {
			renderDOT(t, dot, d.name, d.dot)
		}
	})
	t.Run("mermaid", func(t *testing.T) {
		var texts []string
		var good []drawing
		for _, d := range ds {
			if strings.HasSuffix(d.name, "-full") {
				continue
			}
			if why := MermaidTooBig(d.g, len(d.mmd)); why != "" {
				t.Errorf("%s: %s", d.name, why)
			}
			texts = append(texts, d.mmd)
			good = append(good, d)
		}
		rs := mermaidcheck.Parse(t, append(texts, bad...)...)
		for i, r := range rs[len(good):] {
			if r.Err == "" {
				t.Errorf("Mermaid's parser accepts %q, which it must refuse", bad[i])
			}
		}
		ds := good
		for i, r := range rs[:len(good)] {
			if r.Err != "" {
				t.Errorf("%s: Mermaid's parser refuses it: %s\n%s", ds[i].name, r.Err, ds[i].mmd)
			} else if r.Type != "flowchart-v2" {
				t.Errorf("%s: Mermaid reads a %q diagram, want flowchart-v2", ds[i].name, r.Type)
			}
		}
	})
}

func TestCorpusRenders(t *testing.T) {
	t.Parallel()
	checkDrawings(t, corpusDrawings(t))
}

func TestMachineRenders(t *testing.T) {
	t.Parallel()
	ds := machineDrawings(t)
	ds = append(ds, escapeDrawing(t))
	cov := fakeCoverage(t, load(t, "testdata/machine"))
	ds = append(ds, draw(t, "machine-coverage", load(t, "testdata/machine"), Options{Coverage: cov}))
	// Mermaid's parser refuses a node named end (a keyword), an unquoted
	// pipe in an edge label and an empty quoted label.
	checkDrawings(t, ds, "flowchart LR\n  a --> end\n", "flowchart LR\n  a -->|x|y| b\n", "flowchart LR\n  a([\"\"])\n")
}

// --format svg runs the real dot and returns its SVG.
func TestRenderSVG(t *testing.T) {
	dotProgram(t)
	g := load(t, "testdata/machine")
	svg, err := RenderSVG(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, "machine.svg", svg)
	if !bytes.Contains(svg, []byte("nowhere_at_all (no such state)")) {
		t.Error("the SVG lacks the missing target's label")
	}
}

func TestRenderSVGWithoutDot(t *testing.T) {
	_, err := renderSVG(context.Background(), "kitsoki-no-such-graphviz", load(t, "testdata/machine"), Options{})
	var dm *DotMissingError
	if !errors.As(err, &dm) || !strings.Contains(err.Error(), "apt-get install graphviz") || !strings.Contains(err.Error(), "--format dot") {
		t.Fatalf("error %v, want a DotMissingError naming the install and --format dot", err)
	}
}

// A program that writes more than the cap is stopped and refused.
func TestCappedBuffer(t *testing.T) {
	overs := 0
	c := &cappedBuffer{max: 10, over: func() { overs++ }}
	for range 3 {
		if n, err := c.Write([]byte("123456")); n != 6 || err != nil {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	if !c.full || overs != 1 || c.buf.String() != "123456" {
		t.Fatalf("full %v, overs %d, kept %q", c.full, overs, c.buf.String())
	}
}
