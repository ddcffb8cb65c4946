package graph

import (
	"slices"
	"strings"
	"testing"
)

// edgeSummary is an edge of the drawing in one comparable line.
func edgeSummary(e *Edge) string {
	s := e.Kind.String() + " " + e.tail.ID + " -> " + e.head.ID
	if e.Intent != "" {
		s += " " + e.Intent
	}
	if e.Exit != "" {
		s += " exit=" + e.Exit
	}
	if e.After != "" {
		s += " after=" + e.After
	}
	if e.Chosen {
		s += " chosen"
	}
	if e.Guard != "" {
		s += " when"
	}
	return s
}

// The machine story's drawing holds every kind of node and move, with
// imports folded and phases expanded, each where the story wrote it.
func TestMachineModel(t *testing.T) {
	g := load(t, "testdata/machine")
	kinds := map[string]NodeKind{}
	for _, n := range g.Nodes() {
		kinds[n.Path] = n.Kind
	}
	for path, want := range map[string]NodeKind{
		"lobby": KindState, "pipeline": KindCompound, "pipeline.checks": KindParallel,
		"pipeline.checks.lint": KindCompound, "helper": KindImport, "helper.busy": KindState,
		"alpha_work": KindState, "alpha_awaiting_reply": KindState, // phases expanded
		"finished": KindExit, "nowhere_at_all": KindMissing,
	} {
		if got, ok := kinds[path]; !ok || got != want {
			t.Errorf("node %s: kind %v (present %v), want %v", path, got, ok, want)
		}
	}
	if g.Start == nil || g.Start.Path != "lobby" || !g.Start.Root {
		t.Errorf("start %+v, want the root lobby", g.Start)
	}
	var got []string
	for _, e := range g.Edges {
		got = append(got, edgeSummary(e))
	}
	want := []string{
		"arc s_lobby -> s_pipeline start when",
		"arc s_lobby -> s_alpha_work start when",
		"arc s_lobby -> s_helper start",
		"arc s_lobby -> s_lobby help",
		"arc s_lobby -> s_lobby *",
		"exit s_pipeline -> x_finished leave exit=finished",
		"arc s_pipeline_build -> s_pipeline_review next",
		"timeout s_pipeline_build -> s_pipeline_review after=10m",
		"on_error s_pipeline_build -> s_pipeline_broken host.run",
		"on_error s_pipeline_build -> m_1 host.run",
		"arc s_pipeline_review -> s_pipeline_checks approve",
		"arc s_pipeline_review -> s_pipeline_build back",
		"on_complete s_pipeline_review -> s_pipeline_done host.run chosen",
		"on_complete s_pipeline_review -> s_pipeline_build host.run chosen",
		"arc s_pipeline_broken -> s_pipeline_build retry",
		"arc s_pipeline_checks -> s_pipeline_done leave",
		"arc s_pipeline_checks_lint_running -> s_pipeline_checks_lint_passed next",
		"arc s_pipeline_checks_tests_running -> s_pipeline_checks_tests_passed next",
		"arc s_helper_ready -> s_helper_busy helper__work",
		"exit s_helper_ready -> s_lobby helper__fail exit=failed",
		"exit s_helper_busy -> s_pipeline_review helper__finish exit=done", // an overridden state's arm
		"arc s_alpha_work -> s_pipeline approve",
		"arc s_alpha_awaiting_reply -> s_lobby back",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The three arms of start are three moves, by index, at their own lines.
	var arms []int
	lines := map[int]bool{}
	for _, e := range g.Edges {
		if e.Intent == "start" {
			arms = append(arms, e.Arm)
			lines[e.Pos.Line] = true
		}
	}
	if !slices.Equal(arms, []int{0, 1, 2}) || len(lines) != 3 {
		t.Errorf("start arms %v at %d lines, want 0 1 2 at 3", arms, len(lines))
	}
	// A child's arm keeps the child's file position (coverage counts there).
	for _, e := range g.Edges {
		if e.Intent == "helper__fail" && !strings.HasSuffix(e.Pos.File, "child/app.yaml") {
			t.Errorf("helper__fail at %v, want the child's file", e.Pos)
		}
	}
	// initial children are marked; a templated initial would not be
	for _, n := range g.Nodes() {
		if n.Initial != slices.Contains([]string{"pipeline.build", "pipeline.checks.lint.running", "pipeline.checks.tests.running", "helper.ready"}, n.Path) {
			t.Errorf("%s: initial %v", n.Path, n.Initial)
		}
	}
}

// Each corpus story draws in both formats, as in the goldens.
func TestCorpusGoldens(t *testing.T) {
	for _, d := range corpusDrawings(t) {
		checkGolden(t, "corpus/"+d.name+".dot", d.dot)
		checkGolden(t, "corpus/"+d.name+".mmd", d.mmd)
	}
}

// The machine story and its narrowed views, as in the goldens.
func TestMachineGoldens(t *testing.T) {
	for _, d := range machineDrawings(t) {
		checkGolden(t, d.name+".dot", d.dot)
		checkGolden(t, d.name+".mmd", d.mmd)
	}
}

func machineDrawings(t *testing.T) []drawing {
	g := load(t, "testdata/machine")
	return []drawing{
		draw(t, "machine", g, Options{}),
		draw(t, "machine-depth1", view(t, g, View{Depth: 1}), Options{}),
		draw(t, "machine-pipeline", view(t, g, View{State: "pipeline", Depth: 1}), Options{}),
		draw(t, "machine-review", view(t, g, View{State: "pipeline/review"}), Options{}),
	}
}
