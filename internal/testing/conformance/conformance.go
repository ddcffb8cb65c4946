// Package conformance is the one test-only harness that holds a story's
// flow fixtures to the existing engine's recorded verdicts: [Check] runs
// them through pkg/flowtest and compares them with the upstream.json
// report recorded beside the story (the existing engine's own `test flows
// --json` of the same fixtures); [CheckTree] does so for every directory
// under some roots that holds an upstream.json; [PredictsFailure] says
// which of validate's fixture findings claim such a verdict. It must not call the
// existing engine (a fresh clone has none) nor be imported by product code.
//
// What agrees, fixture by fixture and turn by turn: the verdicts (passed,
// skipped), each turn's index, resting state, view and failure texts (a
// text where upstream prints Go's %v of a value only by count, a job id
// only by its place), whether
// the turn has events, the kinds of its events (in order on the legacy
// path, as a multiset on the orchestrator path, where a call's binds and
// its harness.returned are ordered differently), the state_path of events
// of the same kind at the same place (but for the encoded strings upstream
// writes for entries of a parallel configuration) and whether they carry a
// payload, and the turn's walk (transitions, dispatches, harness errors,
// gate decisions), and the handler and args of each call as made and as
// dispatched (harness.called, harness.dispatched, in upstream's order;
// ids, a detached HEAD's commit and paths in the fixture's working
// directory or the story's read as placeholders or by their rest).
//
// A directory may also hold upstream-aborts.txt: fixtures one of whose
// turns stopped the existing engine's whole flow run ([CheckAborts]).
//
// Two files in a story's directory relax that, each naming on its first
// line the docs/compat bullet that documents why:
//   - DIFFERS: a documented difference. Each fixture must pass here and
//     fail in upstream.json.
//   - IGNORE_EVENTS: event kinds (after the first line) left out of the
//     comparison, besides [documentedKinds].
//   - IGNORE_ARGS: arg keys (after the first line) left out of the
//     comparison of each call's args.
package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// documentedKinds are events whose count differs from upstream's by a
// documented choice of the engine's own (docs/compat/engine.md:
// machine.intent_accepted on emit hops, machine.gate_decided {decider:
// default}); the goldens pin other rules, so they are left out.
var documentedKinds = []string{"machine.intent_accepted", "machine.gate_decided"}

// goValueText marks upstream failure texts that print values with Go's
// %v (%T): ours print JSON values there (docs/compat/flowtest.md), so
// only their presence is compared.
var goValueText = regexp.MustCompile(`map\[|\(\[\]interface|\((u?int|float)(64)?\)|\((string|bool)\)|<nil>`)

// jobIDText is a job id in a failure text (expect_jobs' status
// mismatch): upstream's are random ULIDs, so only their presence is
// compared.
var jobIDText = regexp.MustCompile(`job_id=[0-9A-Z]{26}\b`)

// echoText marks the upstream failure texts that echo what the fixture
// asked for, which ours print word for word as upstream does (maps and
// nulls included), so they are compared whole.
var echoText = regexp.MustCompile(`^expect_events: event \{Kind:.* not found in subsequence$|^expect_host_calls: .* never invoked \(args=map\[.*\]\)$`)

// CheckTree runs [Check] on every directory under roots that holds an
// upstream.json, one subtest each (named by its path below its root),
// with the fixtures flows/*.yaml. It fails when it finds none. The
// subtests run in parallel with each other (each golden is its own story
// and runner); the empty operator profile Check sets for each is set once
// here, for all of them, and restored after the last.
func CheckTree(t *testing.T, roots ...string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	n := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "upstream.json" {
				return err
			}
			dir := filepath.Dir(p)
			name, _ := filepath.Rel(root, dir)
			n++
			t.Run(filepath.ToSlash(name), func(t *testing.T) {
				t.Parallel()
				check(t, dir, "", flowtest.Options{})
				CheckAborts(t, dir)
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatalf("no upstream.json under %v", roots)
	}
}

// Check runs the flow fixtures of dir/app.yaml (flows/*.yaml, or the glob
// given, relative to dir) with o (Jobs forced to 1) and compares them with
// dir/upstream.json as the package doc says. Upstream ran them with no
// operator profile, so the user's (in $XDG_CONFIG_HOME, which Check points
// at an empty directory) must not change ours.
func Check(t *testing.T, dir, glob string, o flowtest.Options) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	check(t, dir, glob, o)
}

// ReadReport reads a `test flows --json` report (upstream.json, or
// compare.sh's existing.json and ours.json).
func ReadReport(path string) (*flowtest.Report, error) {
	data, err := safefile.ReadFile(path, 1<<30)
	if err != nil {
		return nil, err
	}
	return flowtest.ParseReport(path, data)
}

// check is [Check] with the caller's XDG_CONFIG_HOME (CheckTree sets it
// once for its parallel subtests).
func check(t *testing.T, dir, glob string, o flowtest.Options) {
	t.Helper()
	want, err := readUpstream(filepath.Join(dir, "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := filepath.Abs(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if glob == "" {
		glob = filepath.Join("flows", "*.yaml")
	}
	files, ds, err := flowtest.DiscoverUnder("", nil, []string{app}, filepath.Join(dir, glob), false, nil)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("discover %s: %v", dir, d)
		}
	}
	o.Jobs = 1
	got := flowtest.NewReport(flowtest.NewRunner(o).Run(context.Background(), files))
	byName := map[string]*flowtest.FlowResult{}
	for _, r := range got.Results {
		byName[filepath.Base(r.File)] = r
	}
	if len(got.Results) != len(want.Results) {
		t.Errorf("%s: %d fixtures ran, upstream ran %d", dir, len(got.Results), len(want.Results))
	}
	if why, err := os.ReadFile(filepath.Join(dir, "DIFFERS")); err == nil {
		wantDiffers(t, byName, want, firstLine(why))
		return
	}
	skip := DocumentedKinds()
	if extra, err := os.ReadFile(filepath.Join(dir, "IGNORE_EVENTS")); err == nil {
		_, rest, _ := strings.Cut(string(extra), "\n")
		for _, k := range strings.Fields(rest) {
			skip[k] = true
		}
	}
	skipArgs := map[string]bool{}
	if extra, err := os.ReadFile(filepath.Join(dir, "IGNORE_ARGS")); err == nil {
		_, rest, _ := strings.Cut(string(extra), "\n")
		for _, k := range strings.Fields(rest) {
			skipArgs[k] = true
		}
	}
	for i, w := range want.Results {
		name := filepath.Base(w.File)
		g := byName[name]
		if i < len(got.Results) && filepath.Base(got.Results[i].File) == name {
			// in order: a file holding several fixtures reports each
			g = got.Results[i]
		}
		if g == nil {
			t.Errorf("%s: fixture %s did not run", dir, name)
			continue
		}
		compareFlow(t, fmt.Sprintf("%s#%d", name, i), g, w, skip, skipArgs, filepath.Dir(app))
	}
}

// orNone is a payload's text, or "none".
func orNone(p json.RawMessage) string {
	if len(p) == 0 {
		return "none"
	}
	return string(p)
}

func firstLine(b []byte) string {
	l, _, _ := strings.Cut(string(b), "\n")
	return l
}

// wantDiffers checks a documented difference: every fixture passes here
// and fails in the existing engine's report.
func wantDiffers(t *testing.T, got map[string]*flowtest.FlowResult, want *flowtest.Report, why string) {
	t.Helper()
	for _, w := range want.Results {
		g := got[filepath.Base(w.File)]
		if g == nil {
			t.Errorf("%s: did not run", w.File)
			continue
		}
		if !g.Passed {
			t.Errorf("%s: fails here (%s), but kitsoki's behaviour is documented: %s", w.File, strings.Join(failures(g), "; "), why)
		}
		if w.Passed {
			t.Errorf("%s: the golden passes, so it shows no difference (%s)", w.File, why)
		}
	}
}

func compareFlow(t *testing.T, name string, g, w *flowtest.FlowResult, skip, skipArgs map[string]bool, storyDir string) {
	t.Helper()
	if g.Passed != w.Passed || g.Skipped != w.Skipped {
		t.Errorf("%s: passed/skipped %v/%v, upstream %v/%v (ours failed: %q)", name, g.Passed, g.Skipped, w.Passed, w.Skipped, failures(g))
	}
	if len(g.Turns) != len(w.Turns) {
		t.Errorf("%s: %d turns, upstream %d (ours failed: %q)", name, len(g.Turns), len(w.Turns), failures(g))
		return
	}
	for j, wt := range w.Turns {
		gt := g.Turns[j]
		at := fmt.Sprintf("%s turn %d", name, wt.TurnIndex)
		if gt.TurnIndex != wt.TurnIndex || gt.Passed != wt.Passed || gt.NewState != wt.NewState || NoIDs(gt.View) != NoIDs(wt.View) {
			t.Errorf("%s: got {%d %v %q %q}, upstream {%d %v %q %q} (ours failed: %q)", at, gt.TurnIndex, gt.Passed, gt.NewState, gt.View, wt.TurnIndex, wt.Passed, wt.NewState, wt.View, gt.Failures)
		}
		if len(gt.Failures) != len(wt.Failures) {
			t.Errorf("%s: failures %q, upstream %q", at, gt.Failures, wt.Failures)
		} else {
			for k := range wt.Failures {
				same := jobIDText.ReplaceAllString(gt.Failures[k], "job_id=") == jobIDText.ReplaceAllString(wt.Failures[k], "job_id=")
				if (echoText.MatchString(wt.Failures[k]) || !goValueText.MatchString(wt.Failures[k])) && !same {
					t.Errorf("%s: failure %q, upstream %q", at, gt.Failures[k], wt.Failures[k])
				}
			}
		}
		for _, msg := range EventDiffs(gt, wt, skip) {
			t.Errorf("%s: %s", at, msg)
		}
		for _, msg := range callDiffs(gt.Events, wt.Events, skip, skipArgs, storyDir) {
			t.Errorf("%s: %s", at, msg)
		}
	}
}

// DocumentedKinds is a fresh set of the event kinds every comparison
// leaves out ([documentedKinds]).
func DocumentedKinds() map[string]bool {
	skip := map[string]bool{}
	for _, k := range documentedKinds {
		skip[k] = true
	}
	return skip
}

// EventDiffs lists how a turn's events differ from upstream's, as the
// package doc says (kinds in skip left out): whether it has events, their
// kinds, the state_path of events of the same kind at the same place, and
// the turn's walk. The random differential (gen diff) asks it too.
func EventDiffs(gt, wt *flowtest.TurnResult, skip map[string]bool) []string {
	var out []string
	if (gt.Events == nil) != (wt.Events == nil) {
		out = append(out, fmt.Sprintf("events null %v, upstream %v", gt.Events == nil, wt.Events == nil))
	}
	ge, we := without(gt.Events, skip), without(wt.Events, skip)
	legacy := len(wt.Events) > 0 && wt.Events[0].Turn == 0
	if gk, wk := kinds(ge, !legacy), kinds(we, !legacy); gk != wk {
		out = append(out, fmt.Sprintf("event kinds\n got %s\n upstream %s", gk, wk))
	}
	for k, e := range we {
		if k < len(ge) && ge[k].Kind == e.Kind && ge[k].StatePath != e.StatePath {
			out = append(out, fmt.Sprintf("event %d %s state_path %q, upstream %q", k, e.Kind, ge[k].StatePath, e.StatePath))
		}
		if k < len(ge) && ge[k].Kind == e.Kind && (len(ge[k].Payload) == 0) != (len(e.Payload) == 0) {
			out = append(out, fmt.Sprintf("event %d %s has payload %s, upstream %s", k, e.Kind, orNone(ge[k].Payload), orNone(e.Payload)))
		}
		if legacy && k < len(ge) && ge[k].Turn != 0 {
			out = append(out, fmt.Sprintf("legacy event %d has turn %d, upstream 0", k, ge[k].Turn))
		}
	}
	if gw, ww := walk(ge), walk(we); gw != ww {
		out = append(out, fmt.Sprintf("walk\n got %s\n upstream %s", gw, ww))
	}
	return out
}

// without is evs with the skipped kinds left out (nil stays nil).
func without(evs []flowtest.ReportEvent, skip map[string]bool) []flowtest.ReportEvent {
	if evs == nil {
		return nil
	}
	out := []flowtest.ReportEvent{}
	for _, e := range evs {
		if !skip[e.Kind] {
			out = append(out, e)
		}
	}
	return out
}

// kinds lists the event kinds in order, or sorted.
func kinds(evs []flowtest.ReportEvent, sorted bool) string {
	ks := make([]string, len(evs))
	for i, e := range evs {
		ks[i] = e.Kind
	}
	if sorted {
		sort.Strings(ks)
	}
	return strings.Join(ks, " ")
}

// walkKinds are the event kinds a turn's walk reads.
var walkKinds = map[string]bool{"machine.transition": true, "harness.dispatched": true, "harness.error": true, "machine.gate_decided": true}

// walk is a turn's route: each transition (from, to, intent), dispatch
// (namespace), harness error (phase) and gate decision, in order. Only
// their payloads are decoded: a payload in a report is valid JSON (it was
// decoded with the report, or encoded by it), and the rest are not read.
func walk(evs []flowtest.ReportEvent) string {
	var out []string
	for _, e := range evs {
		if !walkKinds[e.Kind] {
			continue
		}
		var p map[string]any
		if len(e.Payload) > 0 {
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				out = append(out, fmt.Sprintf("%s payload: %v", e.Kind, err))
				continue
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

func failures(r *flowtest.FlowResult) []string {
	var out []string
	for _, t := range r.Turns {
		out = append(out, t.Failures...)
	}
	return out
}
