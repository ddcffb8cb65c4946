package coverage

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"kitsoki/pkg/graph"
	"kitsoki/pkg/story"
)

// knownGraph is the known story's drawing and its fixtures' coverage.
func knownGraph(t *testing.T) (*graph.Graph, *GraphCoverage) {
	t.Helper()
	p := runCovered(t, "testdata/known", "testdata/known/app.yaml")
	g, err := graph.Load("testdata/known", story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, NewGraphCoverage(p, "testdata/known", g)
}

// Every state and move the drawing shows is an item of the profile (the
// two agree on where each was written), and each answer is the item's.
func TestGraphCoverageKnown(t *testing.T) {
	g, gc := knownGraph(t)
	want := 0
	for _, n := range g.Nodes() {
		switch n.Kind {
		case graph.KindExit:
			if _, known := gc.StateReached(n.Path); known {
				t.Errorf("exit node %s is answered for: the profile counts exits, not exit nodes", n.Path)
			}
			continue
		}
		want++
		if _, known := gc.StateReached(n.Path); !known {
			t.Errorf("state %s (%v) is unknown to the profile", n.Path, n.Pos)
		}
	}
	for _, e := range g.Edges {
		want++
		if _, known := gc.EdgeReached(e); !known {
			t.Errorf("%s move %s → %s (%v) is unknown to the profile", e.Kind, e.From, e.Target, e.Pos)
		}
	}
	if gc.Known != want {
		t.Errorf("Known %d, want %d", gc.Known, want)
	}
	for path, reached := range map[string]bool{
		"lobby": true, "clock.weather.dry": true, "clock.weather.wet": false, "broken": false,
		"done_state": false, "store.till": true, "beta_executing": true,
	} {
		if got, _ := gc.StateReached(path); got != reached {
			t.Errorf("state %s reached %v, want %v", path, got, reached)
		}
	}
	if _, known := gc.StateReached("no.such.state"); known {
		t.Error("a state the drawing does not have is known")
	}
	moves := map[string]bool{}
	for _, e := range g.Edges {
		r, _ := gc.EdgeReached(e)
		moves[fmt.Sprintf("%s %s %s→%s", e.Kind, e.From, e.Intent, e.Target)] = r
	}
	for m, reached := range map[string]bool{
		"exit lobby quit→@exit:abandoned":          false,
		"exit lobby quit→@exit:finished":           true,
		"exit store.aisle store__walk_out→lobby":   false, // the child's @exit:left, mapped to lobby
		"exit store.till store__pay→lobby":         true,
		"on_complete running host.run→broken":      false,
		"on_complete running host.run→lobby":       true,
		"on_error store.till host.charge→../aisle": false,
		"timeout waiting →lobby":                   true,
		"arc clock.weather.dry rain→../wet":        false,
		"arc alpha_executing approve→done_state":   false,
	} {
		got, ok := moves[m]
		if !ok {
			t.Errorf("no move %q among %v", m, moves)
		} else if got != reached {
			t.Errorf("move %s reached %v, want %v", m, got, reached)
		}
	}
	// collapsed: clock holds the reached dry and the unreached wet
	v, err := g.View(graph.View{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range v.Nodes() {
		if n.Path == "clock" && graph.NodeReach(gc, n) != graph.PartlyReached {
			t.Errorf("collapsed clock: %v, want partly reached", graph.NodeReach(gc, n))
		}
	}
}

// A profile of other files, or read from the wrong directory, knows
// nothing of the drawing: nothing is coloured.
func TestGraphCoverageElsewhere(t *testing.T) {
	p := runCovered(t, "testdata/known", "testdata/known/app.yaml")
	g, err := graph.Load("testdata/known", story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gc := NewGraphCoverage(p, t.TempDir(), g)
	if gc.Known != 0 {
		t.Errorf("Known %d from another directory", gc.Known)
	}
	for _, n := range g.Nodes() {
		if r := graph.NodeReach(gc, n); r != graph.ReachUnknown {
			t.Errorf("%s: %v", n.Path, r)
		}
	}
}

// The known story drawn with its coverage, in each format: Mermaid and
// DOT byte for byte, the SVG as the colour each node, cluster and edge is
// drawn in (the SVG's layout varies with the Graphviz version).
func TestGraphCoverageGoldens(t *testing.T) {
	g, gc := knownGraph(t)
	o := graph.Options{Coverage: gc}
	var m, d bytes.Buffer
	if err := graph.WriteMermaid(&m, g, o); err != nil {
		t.Fatal(err)
	}
	if err := graph.WriteDOT(&d, g, o); err != nil {
		t.Fatal(err)
	}
	golden(t, "known/golden/graph.mmd", m.Bytes())
	golden(t, "known/golden/graph.dot", d.Bytes())
	if _, err := exec.LookPath("dot"); err != nil {
		if os.Getenv("KITSOKI_REQUIRE_GRAPHVIZ") != "" {
			t.Fatal("Graphviz's dot is not on PATH although KITSOKI_REQUIRE_GRAPHVIZ is set")
		}
		t.Skip("Graphviz's dot is not installed (apt-get install graphviz; make test installs it): the SVG is not rendered")
	}
	svg, err := graph.RenderSVG(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "known/golden/graph.svg-colours", svgColours(t, svg))
}

// svgColours lists, for each node, cluster and edge group of a Graphviz
// SVG, its title and the fills and strokes its shapes are drawn with.
func svgColours(t *testing.T, svg []byte) []byte {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	dec.Entity = xml.HTMLEntity
	var out bytes.Buffer
	var class, title string
	var colours []string
	inTitle := false
	flush := func() {
		if class != "" {
			fmt.Fprintln(&out, strings.TrimSpace(class+" "+title+" "+strings.Join(colours, " ")))
		}
		class, title, colours = "", "", nil
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			attr := func(name string) string {
				for _, a := range tk.Attr {
					if a.Name.Local == name {
						return a.Value
					}
				}
				return ""
			}
			switch tk.Name.Local {
			case "g":
				if c := attr("class"); c == "node" || c == "edge" || c == "cluster" {
					flush()
					class = c
				}
			case "title":
				inTitle = class != "" && title == ""
			case "polygon", "ellipse", "path", "polyline":
				if class == "" {
					continue
				}
				for _, a := range []string{"fill", "stroke"} {
					if v := attr(a); v != "" && v != "none" && v != "black" && v != "white" {
						colours = append(colours, a+"="+v)
					}
				}
			}
		case xml.CharData:
			if inTitle {
				title += string(tk)
			}
		case xml.EndElement:
			if tk.Name.Local == "title" {
				inTitle = false
			}
		}
	}
	flush()
	return out.Bytes()
}
