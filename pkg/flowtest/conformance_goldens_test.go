package flowtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir holds stories written to pin one rule of the existing
// engine each, with their fixtures and the existing engine's own --json
// report of them (upstream.json, recorded once with its `test flows`).
const conformanceDir = "../engine/testdata/conformance"

// Every story under conformanceDir with an upstream.json runs here as it
// ran on the existing engine: per-fixture and per-turn verdicts, resting
// states, views, failure texts and each turn's event kinds must agree
// (compareFlow); an IGNORE_EVENTS file names event kinds left out of the
// comparison there (its first line names the docs/compat bullet that
// documents why). A directory with a DIFFERS file is a documented
// difference (its first line names the docs/compat bullet): its fixtures
// expect kitsoki's behaviour, so each must pass here and fail in the
// golden.
func TestConformanceGoldens(t *testing.T) {
	dirs, err := os.ReadDir(conformanceDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		base := filepath.Join(conformanceDir, d.Name())
		want, err := ReadReport(filepath.Join(base, "upstream.json"))
		if os.IsNotExist(err) {
			continue
		}
		n++
		t.Run(d.Name(), func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			app, _ := filepath.Abs(filepath.Join(base, "app.yaml"))
			files, _, err := Discover([]string{app}, filepath.Join(base, "flows", "*.yaml"), false, nil)
			if err != nil || len(files) != len(want.Results) {
				t.Fatalf("%d fixtures (%v), the golden has %d", len(files), err, len(want.Results))
			}
			got := NewReport(NewRunner(Options{Jobs: 1}).Run(context.Background(), files))
			if why, err := os.ReadFile(filepath.Join(base, "DIFFERS")); err == nil {
				wantDiffers(t, got, want, strings.SplitN(string(why), "\n", 2)[0])
				return
			}
			if got.Passed != want.Passed || got.Failed != want.Failed {
				t.Errorf("passed/failed %d/%d, upstream %d/%d", got.Passed, got.Failed, want.Passed, want.Failed)
			}
			skip := documentedKinds
			if extra, err := os.ReadFile(filepath.Join(base, "IGNORE_EVENTS")); err == nil {
				skip = ignoredKinds(string(extra))
			}
			for i, w := range want.Results {
				compareFlow(t, fmt.Sprintf("%s#%d", w.File, i), withoutKinds(got.Results[i], skip), withoutKinds(w, skip))
			}
		})
	}
	if n == 0 {
		t.Fatal("no conformance goldens found")
	}
}

// documentedKinds are events whose count differs from upstream's by a
// documented choice of the engine's own (docs/compat/engine.md:
// machine.intent_accepted on emit hops, machine.gate_decided {decider:
// default}); the goldens pin other rules, so they are left out.
var documentedKinds = map[string]bool{"machine.intent_accepted": true, "machine.gate_decided": true}

// ignoredKinds is documentedKinds plus the event kinds an IGNORE_EVENTS
// file lists (after its first line, which names the docs/compat bullet
// that documents the difference).
func ignoredKinds(file string) map[string]bool {
	out := map[string]bool{}
	for k := range documentedKinds {
		out[k] = true
	}
	_, rest, _ := strings.Cut(file, "\n")
	for _, k := range strings.Fields(rest) {
		out[k] = true
	}
	return out
}

// withoutKinds is r with the skipped events dropped from each turn.
func withoutKinds(r *FlowResult, skip map[string]bool) *FlowResult {
	c := *r
	c.Turns = make([]*TurnResult, len(r.Turns))
	for i, tr := range r.Turns {
		ct := *tr
		if tr.Events != nil {
			ct.Events = []ReportEvent{}
			for _, e := range tr.Events {
				if !skip[e.Kind] {
					ct.Events = append(ct.Events, e)
				}
			}
		}
		c.Turns[i] = &ct
	}
	return &c
}

// wantDiffers checks a documented difference: every fixture passes here
// and fails in the existing engine's report.
func wantDiffers(t *testing.T, got, want *Report, why string) {
	t.Helper()
	for i, w := range want.Results {
		g := got.Results[i]
		if !g.Passed {
			var fs []string
			for _, tr := range g.Turns {
				fs = append(fs, tr.Failures...)
			}
			t.Errorf("%s: fails here (%s), but kitsoki's behaviour is documented: %s", w.File, strings.Join(fs, "; "), why)
		}
		if w.Passed {
			t.Errorf("%s: the golden passes, so it shows no difference (%s)", w.File, why)
		}
	}
}
