package phasese2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// runFlows runs the flow fixtures beside app through the real engine
// (pkg/flowtest, as `kitsoki test` does).
func runFlows(t *testing.T, app string) []*flowtest.Result {
	t.Helper()
	files, ds, err := flowtest.DiscoverUnder("", nil, []string{app}, "", false, nil)
	if err != nil || len(ds) > 0 {
		t.Fatalf("discover %s: %v %v", app, err, ds)
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures beside %s", app)
	}
	return flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files)
}

// TestConformance: phased stories written to probe upstream's expansion
// (tag forms, {param} in keys, references left as written, phase.next
// names, the entry's on_enter, cycle budgets, an imported phased child,
// conformance probes 05 and 16) give, fixture by fixture and turn by
// turn, the verdicts, states and views the existing engine recorded in
// each upstream.json.
func TestConformance(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/conformance/*")
	dirs = append(dirs, "../testdata/run", "../testdata/imported/parent")
	if len(dirs) < 10 {
		t.Fatalf("only %d conformance stories", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			conformance.Check(t, dir, "", flowtest.Options{})
		})
	}
}

// TestRunCanFail: the same story with a fixture that expects the wrong
// next phase fails, so the passing runs above mean something.
func TestRunCanFail(t *testing.T) {
	data, err := os.ReadFile("../testdata/run/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": string(data),
		"flows/wrong.yaml": `test_kind: flow
app: ../app.yaml
initial_state: alpha_awaiting_reply
initial_world: {count: 1}
turns:
  - intent: {name: approve}
    expect_state: alpha_executing
`,
	})
	res := runFlows(t, filepath.Join(dir, "app.yaml"))
	if len(res) != 1 || res[0].Passed() {
		t.Fatal("a fixture expecting the wrong phase passed")
	}
	if got := res[0].Failures[0].State; got != "beta_executing" {
		t.Errorf("landed in %q, want beta_executing (the budget is spent)", got)
	}
}

// TestCompileRefusesBadPhases: an expansion problem the loader does not
// see (a state key naming no parameter) stops engine.Compile, positioned,
// with no "imports." prefix.
func TestCompileRefusesBadPhases(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{"app.yaml": `app: {id: bad}
intents: {go: {}}
root: start
states:
  start: {on: {go: [{target: start}]}}
phase_templates:
  t:
    states:
      "{id}_{nope}": {}
phases:
  template: t
  graph: {start: {}}
`})
	st, _ := lint.Load(dir, story.Options{})
	if st == nil {
		t.Fatal("no model")
	}
	_, err := engine.Compile(st, engine.CompileOptions{LateHandlers: true})
	var ce *engine.CompileError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 {
		t.Fatalf("err = %v", err)
	}
	p := ce.Problems[0]
	if p.Pos.Line != 10 || !strings.Contains(p.Message, `phases.graph["start"]: state name "{id}_{nope}": unknown parameter "nope"`) || strings.HasPrefix(p.Message, "imports.") {
		t.Errorf("problem = %+v", p)
	}
}

// TestFoldHook: fold.New with the hook leaves no phases: and the
// generated states carry the story's directory.
func TestFoldHook(t *testing.T) {
	st, _ := lint.Load("../testdata/run", story.Options{})
	if st == nil {
		t.Fatal("no model")
	}
	f, err := fold.New(st, fold.Options{Phases: phases.Expand})
	if err != nil {
		t.Fatal(err)
	}
	if f.Story.Phases != nil {
		t.Error("phases: left in the folded story")
	}
	for _, p := range []string{"alpha_executing", "alpha_awaiting_reply", "beta_executing", "beta_awaiting_reply"} {
		si := f.Info(p)
		if si == nil {
			t.Errorf("%s not in the folded story", p)
			continue
		}
		if abs, _ := filepath.Abs("../testdata/run"); si.Dir != abs {
			t.Errorf("%s: dir %q", p, si.Dir)
		}
	}
	if st.Phases == nil {
		t.Error("the loaded story was edited (the fold's copy must be)")
	}
}

// TestViewsOfGeneratedStates: the composed story renders the views of
// generated states (all four forms) against the story's views/.
func TestViewsOfGeneratedStates(t *testing.T) {
	ld, err := compose.Load("../../story/testdata/upstream/phases-full", compose.LoadOptions{Compile: engine.CompileOptions{LateHandlers: true}})
	if err != nil || ld.CompileErr != nil || ld.Views == nil {
		t.Fatalf("load: %v %v", err, ld.CompileErr)
	}
	world := map[string]any{"x": "", "spec": map[string]any{}}
	for path, want := range map[string]string{
		"design_executing":      "Drafting Design (3)",
		"build_executing":       "Drafting Build (5)\nBudget:  5",
		"design_awaiting_reply": "Checkpoint: ",
	} {
		got, err := ld.Views.RenderView(path, world, nil)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: view %q does not contain %q", path, got, want)
		}
	}
}
