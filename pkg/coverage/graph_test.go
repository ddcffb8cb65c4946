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

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/engine"
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
	golden.Check(t, "testdata/known/golden/graph.mmd", m.Bytes())
	golden.Check(t, "testdata/known/golden/graph.dot", d.Bytes())
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
	golden.Check(t, "testdata/known/golden/graph.svg-colours", svgColours(t, svg))
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

// With -v, each unreached move of the known story is listed with the
// fewest intents from the root to the state it leaves from.
func TestKnownStoryPathHints(t *testing.T) {
	g, _ := knownGraph(t)
	p := runCovered(t, "testdata/known", "testdata/known/app.yaml")
	h := NewHints()
	h.AddStory("testdata/known", "", g)
	var b bytes.Buffer
	WriteUnreachedHints(&b, p, h, "testdata/known")
	out := b.String()
	for _, want := range []string{
		// the phase template's guarded arm: alpha's copy is the nearer
		"app.yaml:42:15: arc on approve → done_state (in alpha_executing)\n      to reach alpha_executing: kitsoki run testdata/known --intent work\n",
		"app.yaml:61:11: arc on quit → @exit:abandoned (in lobby)\n      to reach lobby: kitsoki run testdata/known\n",
		"app.yaml:75:21: on_complete → broken (in running)\n      to reach running: kitsoki run testdata/known --intent run\n",
		"app.yaml:101:22: arc on rain → ../wet (in clock.weather.dry)\n      to reach clock.weather.dry: kitsoki run testdata/known --intent enter\n",
		"shop/app.yaml:22:19: on_error → ../aisle (in store.till)\n      to reach store.till: kitsoki run testdata/known --intent shop --intent store__pay\n",
		"\nintent paths: the fewest intents from the root to the state the move leaves from, guards ignored",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	// states, exits and effects get no hint
	if strings.Contains(out, "app.yaml:77:3: state broken\n      ") || strings.Contains(out, "exit abandoned\n      ") {
		t.Errorf("a hint under a state or exit:\n%s", out)
	}
	golden.Check(t, "testdata/known/golden/unreached-paths.txt", b.Bytes())
}

// A move whose state no intent reaches says so; a path through an intent
// with a required slot asks for its value; odd names are shell-quoted.
func TestPathHintCommands(t *testing.T) {
	for _, c := range []struct {
		h    Hint
		want string
	}{
		{Hint{Story: "my story", Root: ".", Found: true, Path: pathOf("ask", "go"), Slots: map[string][]string{"ask": {"q"}}},
			"kitsoki run 'my story' --root . --intent ask --slot q=VALUE --intent go"},
		{Hint{Story: "s", Found: true, Path: pathOf("it's")}, `kitsoki run s --intent 'it'\''s'`},
		{Hint{Story: "s", Found: false}, ""},
	} {
		if got := c.h.Command(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.h, got, c.want)
		}
	}
	g, err := graph.Load("../graph/testdata/paths", story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// the story's fixtures walk two of its intent paths on the engine
	// (box.deep: b c a; par.right.r2: b c d a with the guard open)
	runCovered(t, "../graph/testdata/paths", "../graph/testdata/paths/app.yaml")
	h := NewHints()
	h.AddStory("paths", "", g)
	var island, timed, ask *graph.Edge
	for _, e := range g.Edges {
		switch {
		case e.From == "island":
			island = e
		case e.From == "timed":
			timed = e
		case e.Intent == "ask":
			ask = e
		}
	}
	loc := func(e *graph.Edge) Located {
		return Located{Path: e.Pos.File, Item: Item{Kind: engine.ReachArc, Line: e.Pos.Line, Col: e.Pos.Col}}
	}
	if hint, ok := h.For("", loc(island)); !ok || hint.Found || hint.State != "island" {
		t.Errorf("island: %+v %v, want no path", hint, ok)
	}
	p := &Profile{Files: []*File{{Path: island.Pos.File, Items: []Item{loc(island).Item, loc(timed).Item}}}}
	var b bytes.Buffer
	WriteUnreachedHints(&b, p, h, "")
	for _, want := range []string{
		"\n      no intent path from the root reaches island: no move leads there\n",
		"\n      no intent path from the root reaches timed: only a timeout, on_error or on_complete move leads there\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q line:\n%s", want, b.String())
		}
	}
	if hint, ok := h.For("", loc(ask)); !ok || hint.Command() != "kitsoki run paths" {
		t.Errorf("ask from the root: %+v", hint)
	}
}
