package flowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The engine's conformance goldens: each pkg/engine/testdata/conformance
// directory with an upstream.json holds a story written to isolate one
// rule of the emit passes, gates, jobs and landings, its flows, and the
// existing engine's own --json report of them. Every fixture and turn
// must get upstream's verdict, resting state and view, and walk the same
// way: the machine.transition hops (from, intent, to) in order, where the
// calls are dispatched among them, the harness.error phases and the gate
// stops.
func TestEngineConformanceGoldens(t *testing.T) {
	ups, _ := filepath.Glob(filepath.Join("..", "engine", "testdata", "conformance", "*", "upstream.json"))
	if len(ups) < 9 {
		t.Fatalf("%d conformance goldens, want at least 9", len(ups))
	}
	for _, up := range ups {
		base := filepath.Dir(up)
		if _, err := os.Stat(filepath.Join(base, "DIFFERS")); err == nil {
			continue // a documented difference: TestConformanceGoldens checks it
		}
		t.Run(filepath.Base(base), func(t *testing.T) {
			want, err := ReadReport(up)
			if err != nil {
				t.Fatal(err)
			}
			app, _ := filepath.Abs(filepath.Join(base, "app.yaml"))
			files, _, err := Discover([]string{app}, filepath.Join(base, "flows", "*.yaml"), false, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := NewReport(NewRunner(Options{Jobs: 1}).Run(context.Background(), files))
			byName := map[string]*FlowResult{}
			for _, g := range got.Results {
				byName[filepath.Base(g.File)] = g
			}
			if len(got.Results) != len(want.Results) {
				t.Errorf("%d fixtures, upstream %d", len(got.Results), len(want.Results))
			}
			for _, w := range want.Results {
				name := filepath.Base(w.File)
				g := byName[name]
				if g == nil {
					t.Errorf("%s: not run", name)
					continue
				}
				compareWalk(t, name, g, w)
			}
		})
	}
}

func compareWalk(t *testing.T, name string, g, w *FlowResult) {
	t.Helper()
	if g.Passed != w.Passed {
		t.Errorf("%s: passed %v, upstream %v", name, g.Passed, w.Passed)
	}
	if len(g.Turns) != len(w.Turns) {
		t.Errorf("%s: %d turns, upstream %d", name, len(g.Turns), len(w.Turns))
		return
	}
	for i, wt := range w.Turns {
		gt := g.Turns[i]
		at := fmt.Sprintf("%s turn %d", name, wt.TurnIndex)
		if gt.Passed != wt.Passed || gt.NewState != wt.NewState || gt.View != wt.View {
			t.Errorf("%s: got {%v %q %q}, upstream {%v %q %q} (failures %q)", at, gt.Passed, gt.NewState, gt.View, wt.Passed, wt.NewState, wt.View, gt.Failures)
		}
		if gw, ww := walkOf(t, gt.Events), walkOf(t, wt.Events); gw != ww {
			t.Errorf("%s: walk\n got %s\n upstream %s", at, gw, ww)
		}
	}
}

// walkOf is a turn's walk: its transitions, dispatched calls, harness
// errors and gate decisions, in order.
func walkOf(t *testing.T, evs []ReportEvent) string {
	var out []string
	for _, e := range evs {
		var p map[string]any
		if len(e.Payload) > 0 {
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatalf("%s payload: %v", e.Kind, err)
			}
		}
		switch e.Kind {
		case "machine.transition":
			out = append(out, fmt.Sprintf("T %v>%v %v", p["from"], p["to"], p["intent"]))
		case "harness.dispatched":
			out = append(out, fmt.Sprintf("D %v", p["namespace"]))
		case "harness.error":
			out = append(out, fmt.Sprintf("E %v", p["phase"]))
		case "machine.gate_decided":
			out = append(out, fmt.Sprintf("G %v %v", p["decider"], p["bailed_to_human"]))
		}
	}
	return strings.Join(out, " | ")
}
