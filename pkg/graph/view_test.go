package graph

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mapCoverage is a coverage profile in memory: the states and the moves
// (by From, Intent and Arm) a fixture reached; everything else of the
// story is known and unreached.
type mapCoverage struct {
	states map[string]bool
	moves  map[string]bool
}

func (c mapCoverage) StateReached(path string) (bool, bool) { return c.states[path], true }
func (c mapCoverage) EdgeReached(e *Edge) (bool, bool) {
	return c.moves[fmt.Sprintf("%s %s %d", e.From, e.Intent, e.Arm)], true
}

func fakeCoverage(t *testing.T, g *Graph) Coverage {
	return mapCoverage{
		states: map[string]bool{"lobby": true, "pipeline": true, "pipeline.build": true},
		moves:  map[string]bool{"lobby start 0": true},
	}
}

func TestCoverageColours(t *testing.T) {
	g := load(t, "testdata/machine")
	cov := fakeCoverage(t, g)
	d := draw(t, "cov", g, Options{Coverage: cov})
	for _, want := range []string{
		`s_lobby [label="lobby", penwidth=2, fillcolor="` + fillReached + `", style="rounded,filled"]`,
		`s_helper_busy [label="busy", fillcolor="` + fillUnreached + `", style="rounded,filled"]`,
		`s_lobby -> s_pipeline [lhead=cluster_s_pipeline, label="start\n[world.route == \"a|b\" && world.count >\n0]", penwidth=2, color="` + lineReached,
		`s_lobby -> s_helper [lhead=cluster_s_helper, label="start", penwidth=2, color="` + lineUnreached,
	} {
		if !strings.Contains(d.dot, want) {
			t.Errorf("DOT lacks %s", want)
		}
	}
	if !strings.Contains(d.mmd, "\n  class s_lobby,s_pipeline_build,s_pipeline reached\n") || !strings.Contains(d.mmd, "\n  classDef unreached fill:") {
		t.Errorf("Mermaid lacks the coverage classes:\n%s", d.mmd)
	}
	// collapsed: pipeline holds reached and unreached states
	v := view(t, g, View{Depth: 1})
	for _, n := range v.Top {
		want := map[string]Reach{"lobby": Reached, "pipeline": PartlyReached, "helper": Unreached, "finished": ReachUnknown}
		if r, ok := want[n.Path]; ok && NodeReach(cov, n) != r {
			t.Errorf("%s: reach %v, want %v", n.Path, NodeReach(cov, n), r)
		}
	}
	// without a profile nothing is coloured
	if plain := draw(t, "plain", g, Options{}); strings.Contains(plain.dot, "fillcolor=\"#") || strings.Contains(plain.mmd, "reached") {
		t.Error("a drawing without coverage is coloured")
	}
}

func TestViewDepthAndState(t *testing.T) {
	g := load(t, "testdata/machine")
	v := view(t, g, View{Depth: 1})
	var top []string
	for _, n := range v.Top {
		top = append(top, n.Path+":"+strings.Join(nodeLabel(n), "/"))
	}
	want := "lobby:lobby pipeline:pipeline/11 states, 11 moves inside helper:helper/imports ./child/2 states, 1 move inside " +
		"alpha_work:alpha_work alpha_awaiting_reply:alpha_awaiting_reply finished:@exit:finished nowhere_at_all:nowhere_at_all (no such state)"
	if strings.Join(top, " ") != want {
		t.Errorf("depth 1 top:\n%s\nwant\n%s", strings.Join(top, " "), want)
	}
	// edges are redrawn to the collapsed nodes; those between the same
	// two nodes of the same kind merge
	var got []string
	for _, e := range v.Edges {
		got = append(got, e.tail.Path+" -> "+e.head.Path+" "+strings.Join(edgeLabel(e), "/"))
	}
	wantEdges := []string{
		`lobby -> pipeline start/[world.route == "a|b" && world.count >/0]`,
		`lobby -> alpha_work start/[world.note matches '^[#;]+\\n$' ||/world.count < 3]`,
		"lobby -> helper start", "lobby -> lobby help", "lobby -> lobby *",
		"pipeline -> finished leave", "pipeline -> nowhere_at_all on_error (host.run)",
		"helper -> lobby helper__fail/exit failed", "helper -> pipeline helper__finish/exit done",
		"alpha_work -> pipeline approve", "alpha_awaiting_reply -> lobby back",
	}
	if !slices.Equal(got, wantEdges) {
		t.Errorf("depth 1 edges:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantEdges, "\n"))
	}
	// in the pipeline's view, review's moves keep their own edges
	two := view(t, g, View{State: "pipeline", Depth: 1})
	var labels []string
	for _, e := range two.Edges {
		if e.tail.Path == "pipeline.review" && e.head.Path == "pipeline.build" {
			labels = append(labels, strings.Join(edgeLabel(e), "/"))
		}
	}
	if !slices.Equal(labels, []string{"back", "on_complete (host.run)/(template)"}) {
		t.Errorf("review -> build in the pipeline view: %q", labels)
	}
	for _, e := range two.Edges {
		if e.head.Path == "pipeline.checks" && e.tail.Path == "pipeline.review" && (len(e.Merged) != 1 || e.head.Kind != KindCollapsed) {
			t.Errorf("review -> collapsed checks: %+v", e)
		}
	}

	// the subtree under pipeline.review: stubs for the states outside
	s := view(t, g, View{State: "pipeline.review"})
	var ids []string
	for _, n := range s.Nodes() {
		ids = append(ids, n.ID)
	}
	if got := strings.Join(ids, " "); got != "s_pipeline_review o_pipeline_build o_pipeline_checks o_pipeline_done o_helper_busy" {
		t.Errorf("review view nodes: %s", got)
	}
	if s.Start != nil {
		t.Error("the root is outside the subtree but the view has a start")
	}
	for _, n := range s.Nodes() {
		if n.Kind == KindStub && strings.HasPrefix(n.Path, "pipeline.review") {
			t.Errorf("stub for a state inside the subtree: %s", n.Path)
		}
	}

	// an unknown state is refused with the closest path
	_, err := g.View(View{State: "pipeline.reveiw"})
	var se *StateError
	if !errors.As(err, &se) || se.Suggest != "pipeline.review" || !strings.Contains(err.Error(), "did you mean `pipeline.review`?") {
		t.Errorf("error %v", err)
	}
	_, err = g.View(View{State: "zzzzzzzz"})
	if err == nil || !strings.Contains(err.Error(), "top-level states are lobby, pipeline, helper") {
		t.Errorf("error %v", err)
	}
}

// bigStory writes a story of 10 rooms, each with two compound stages of
// 14 states: 310 states, about 850 moves. Two arcs lead from each room to
// the next (from b.s5 and b.s13).
func bigStory(t testing.TB) string {
	var b strings.Builder
	b.WriteString("app: {id: big, title: A big story}\nworld:\n  n: {type: int, default: 0}\nintents:\n")
	for _, in := range []string{"next", "reset", "advance", "skip"} {
		fmt.Fprintf(&b, "  %s: {description: %s}\n", in, in)
	}
	b.WriteString("exits:\n  out: {description: out}\nroot: r0\nstates:\n")
	for r := range 10 {
		fmt.Fprintf(&b, "  r%d:\n    initial: a\n    on:\n      skip: [{target: r%d}]\n    states:\n", r, (r+3)%10)
		for _, stage := range []string{"a", "b"} {
			fmt.Fprintf(&b, "      %s:\n        initial: s0\n        states:\n", stage)
			for i := range 14 {
				fmt.Fprintf(&b, "          s%d:\n            on:\n", i)
				if stage == "b" && i == 5 && r < 9 {
					fmt.Fprintf(&b, "              advance: [{target: r%d}]\n", r+1)
				}
				switch {
				case i < 13:
					fmt.Fprintf(&b, "              next: [{target: ../s%d}]\n", i+1)
				case stage == "a":
					b.WriteString("              next: [{target: ../../b}]\n")
				case r < 9:
					fmt.Fprintf(&b, "              advance: [{target: r%d}]\n", r+1)
				default:
					b.WriteString("              advance: [{target: \"@exit:out\"}]\n")
				}
				fmt.Fprintf(&b, "              reset:\n                - when: \"world.n > %d\"\n                  target: ../s0\n                - target: .\n", i)
			}
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A 310-state story stays readable: --depth 1 draws ten nodes, --state
// one room; every view renders with dot and parses as Mermaid, and the
// whole drawing is reported too big for Mermaid.
func TestBigStoryStaysReadable(t *testing.T) {
	t.Parallel()
	g := load(t, bigStory(t))
	states := 0
	for _, n := range g.Nodes() {
		if n.Kind <= KindCollapsed {
			states++
		}
	}
	if states != 310 {
		t.Fatalf("%d states, want 310", states)
	}
	full := draw(t, "big-full", g, Options{})
	if MermaidTooBig(g, len(full.mmd)) == "" {
		t.Errorf("the full drawing (%d edges, %d bytes) fits Mermaid's limits; the story is not big enough", len(g.Edges), len(full.mmd))
	}
	top := draw(t, "big-depth1", view(t, g, View{Depth: 1}), Options{})
	room := draw(t, "big-room", view(t, g, View{State: "r3", Depth: 1}), Options{})
	stage := draw(t, "big-stage", view(t, g, View{State: "r3.b"}), Options{})
	for _, c := range []struct {
		d               drawing
		nodes, maxEdges int
		maxMermaid      int
	}{
		{top, 11, 25, 4000},   // ten collapsed rooms and the exit
		{room, 7, 10, 2500},   // r3 with its two collapsed stages, stubs r6, r4 (out), r0, r2 (in)
		{stage, 17, 60, 9000}, // r3.b's 14 states, stubs r3 and r4
	} {
		n := len(c.d.g.Nodes())
		if n != c.nodes || len(c.d.g.Edges) > c.maxEdges || len(c.d.mmd) > c.maxMermaid {
			t.Errorf("%s: %d nodes (want %d), %d edges (at most %d), %d bytes of Mermaid (at most %d)",
				c.d.name, n, c.nodes, len(c.d.g.Edges), c.maxEdges, len(c.d.mmd), c.maxMermaid)
		}
	}
	var r0r1 []string
	for _, e := range top.g.Edges {
		if e.tail.Path == "r0" && e.head.Path == "r1" {
			r0r1 = append(r0r1, strings.Join(edgeLabel(e), "/"))
		}
	}
	if !slices.Equal(r0r1, []string{"2 arcs: advance"}) {
		t.Errorf("r0 -> r1 at depth 1: %q, want one merged edge", r0r1)
	}
	checkDrawings(t, []drawing{full, top, room, stage})
}
