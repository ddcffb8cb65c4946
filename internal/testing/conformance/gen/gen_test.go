package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/flowtest"
)

// goText is Go runtime or formatting text that must never reach a user.
var goText = words{"interface conversion", "runtime error", "panic", "goroutine ", "%!", "(MISSING)"}

// words matches a text holding any of its words, as the regexp of their
// alternation would, without walking the text position by position (the
// backtracker spent seconds of the race run on every view and payload).
type words []string

func (w words) MatchString(s string) bool {
	return slices.ContainsFunc(w, func(x string) bool { return strings.Contains(s, x) })
}

func (w words) Match(b []byte) bool {
	return slices.ContainsFunc(w, func(x string) bool { return bytes.Contains(b, []byte(x)) })
}

// goText matches what the regexp of its words' alternation matches.
func TestGoTextMatchesItsAlternation(t *testing.T) {
	re := regexp.MustCompile(`interface conversion|runtime error|panic|goroutine |%!|\(MISSING\)`)
	for _, s := range []string{"", "ok", "a panic: x", "Panic", "goroutine 1 [running]:", "goroutine", "%!d(string=x)", "100%", "(MISSING)", "(MISSING",
		"runtime error: index out of range", "runtime", "interface conversion: any is nil", "interface"} {
		if want := re.MatchString(s); goText.MatchString(s) != want || goText.Match([]byte(s)) != want {
			t.Errorf("%q: goText %v/%v, the regexp %v", s, goText.MatchString(s), goText.Match([]byte(s)), want)
		}
	}
}

// The stories gen writes load here and their fixtures run (they fail on
// turns the random intents make impossible) with no Go runtime text in
// any failure, view or event; the same seed writes the same bytes.
func TestGeneratedStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	flows := func(dir string, n int, seed uint64) error { return write(dir, n, seed, genOpts{}) }
	dir := writeSeeded(t, flows, n, 7, "000/app.yaml", "002/flows/f.yaml")
	runClean(t, discoverEach(t, dir, n), n)
}

// discoverEach loads the fixtures of each of the n stories under dir (one,
// or two with -rare's cassette fixture), which must load with no
// diagnostic.
func discoverEach(t *testing.T, dir string, n int) []*flowtest.File {
	t.Helper()
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(ds) > 0 || len(fs) == 0 || len(fs) > 2 {
			t.Fatalf("%s: fixtures %d, diagnostics %v, error %v", d, len(fs), ds, err)
		}
		files = append(files, fs...)
	}
	return files
}

// -kind legacy writes the same stories with fixtures for the legacy path:
// each names its start state and never advances the clock, and they run
// clean; -emits adds parallel emit: events, -trail a mark in every
// on_enter and arm.
func TestLegacyStoriesRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const n = 20
	if err := write(dir, n, 7, genOpts{legacy: true, emits: true, trail: true}); err != nil {
		t.Fatal(err)
	}
	var files []*flowtest.File
	emits, marks := 0, 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		app, _ := os.ReadFile(filepath.Join(d, "app.yaml"))
		emits += len(regexp.MustCompile(`(?m)^\s+(- )?emit:`).FindAll(app, -1))
		marks += strings.Count(string(app), "E:s0;")
		fx, err := os.ReadFile(filepath.Join(d, "flows", "f.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fx), "use_orchestrator: false") || !strings.Contains(string(fx), "initial_state: ") || strings.Contains(string(fx), "advance_clock") {
			t.Fatalf("%s: not a legacy fixture with a start state and no clock:\n%s", d, fx)
		}
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(ds) > 0 || len(fs) == 0 || len(fs) > 2 {
			t.Fatalf("%s: fixtures %d, diagnostics %v, error %v", d, len(fs), ds, err)
		}
		files = append(files, fs...)
	}
	if emits == 0 {
		t.Errorf("-emits wrote no emit: in %d stories", n)
	}
	if marks != n {
		t.Errorf("-trail marked s0's on_enter in %d of %d stories", marks, n)
	}
	runClean(t, files, n)
}

// A diff of a report with itself finds nothing; a changed resting state,
// view or world value is reported at its turn.
func TestDiffReports(t *testing.T) {
	t.Parallel()
	mk := func(state, view, n string) *flowtest.Report {
		return &flowtest.Report{Results: []*flowtest.FlowResult{{File: "flows/f.yaml", Passed: true, Turns: []*flowtest.TurnResult{
			{TurnIndex: 0, Passed: true, NewState: "a", View: "A"},
			{TurnIndex: 1, Passed: true, NewState: state, View: view, Events: []flowtest.ReportEvent{{Kind: "world.update", Payload: []byte(`{"set":{"n":` + n + `}}`)}}},
		}}}}
	}
	base := mk("b", "B", "5")
	if d := diffReports(base, mk("b", "B", "5.0")); d != "" {
		t.Errorf("same reports differ: %s", d)
	}
	for _, c := range []struct {
		ours *flowtest.Report
		want string
	}{
		{mk("c", "B", "5"), `f.yaml turn 1: state "c", existing "b"`},
		{mk("b", "C", "5"), `f.yaml turn 1: view "C", existing "B"`},
		{mk("b", "B", "6"), `f.yaml turn 1: world {n=6}, existing {n=5}`},
	} {
		if d := diffReports(base, c.ours); d != c.want {
			t.Errorf("diff %q, want %q", d, c.want)
		}
	}
}

// Each scalar form is written as the author would type it (plain forms
// unquoted, quoted ones in double quotes) and reads back as its text, and
// the stories gen writes carry them in world defaults, set: values and
// fixture values; -known alone adds .inf/.nan.
func TestScalarFormsWrittenAsTyped(t *testing.T) {
	t.Parallel()
	for _, f := range append(slices.Clone(scalarForms), knownForms...) {
		b, err := yaml.Marshal(m{"k": f})
		if err != nil {
			t.Fatalf("%q: %v", f.text, err)
		}
		want := "k: " + f.text + "\n"
		if f.quoted {
			want = "k: " + strconv.Quote(f.text) + "\n"
		}
		if string(b) != want {
			t.Errorf("form %q wrote %q, want %q", f.text, b, want)
		}
		var n yaml.Node
		if err := yaml.Unmarshal(b, &n); err != nil || n.Content[0].Content[1].Value != f.text {
			t.Errorf("form %q does not read back as its text (%v)", f.text, err)
		}
	}
	count := func() (defaults, sets, fixtures, inf int) {
		dir := t.TempDir()
		if err := write(dir, 30, 11, genOpts{}); err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			app, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d", i), "app.yaml"))
			fx, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d", i), "flows", "f.yaml"))
			defaults += strings.Count(string(app), "type: any")
			sets += len(regexp.MustCompile(`(?m)^\s+x[012]: `).FindAll(app, -1))
			fixtures += len(regexp.MustCompile(`(?m)^\s+x[012]: `).FindAll(fx, -1))
			inf += strings.Count(string(app)+string(fx), ".inf") + strings.Count(string(app)+string(fx), ".nan")
		}
		return
	}
	d, s, f, inf := count()
	if d != 90 || s == 0 || f == 0 || inf != 0 {
		t.Errorf("30 stories: %d form defaults (want 90), %d set:/bind values, %d fixture values, %d .inf/.nan (want 0)", d, s, f, inf)
	}
	known := func(d string, n int, seed uint64) error { return write(d, n, seed, genOpts{known: true}) }
	assertDrawnWithin(t, known, 11, 30, ".inf", ".nan")
}

// storyFixtures discovers the flow fixtures of stories 000..n-1 under dir,
// failing the test when a story does not load or holds fewer than least.
func storyFixtures(t *testing.T, dir string, n, least int) []*flowtest.File {
	t.Helper()
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) < least {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	return files
}

// runClean runs the fixtures of n generated stories: each runs, no failure
// says a story does not load, no failure, view or event payload holds Go
// runtime text, and at least five turns a story ran. It returns the
// results, for a test to check more of the same run.
func runClean(t *testing.T, files []*flowtest.File, n int) []*flowtest.Result {
	t.Helper()
	results := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files)
	flowtest.NewReport(results) // encodes the events' payloads read below
	turns := 0
	for _, r := range results {
		if r.Fatal != nil {
			t.Errorf("%s: could not run: %s", r.Story, r.Fatal.Message)
			continue
		}
		for _, f := range r.Failures {
			if goText.MatchString(f.Message) || strings.Contains(f.Message, "does not load") {
				t.Errorf("%s: %s", r.Story, f.Message)
			}
		}
		for _, tr := range r.Flow.Turns {
			turns++
			if goText.MatchString(tr.View) {
				t.Errorf("%s turn %d: view %q", r.Story, tr.TurnIndex, tr.View)
			}
			for _, e := range tr.Events {
				if goText.Match(e.Payload) {
					t.Errorf("%s turn %d: %s %s", r.Story, tr.TurnIndex, e.Kind, e.Payload)
				}
			}
		}
	}
	if turns < n*5 {
		t.Errorf("only %d turns ran over %d stories", turns, n)
	}
	return results
}

// writeSeeded writes n stories of one kind at seed into a fresh
// directory, and three more into another: each of same (paths below both)
// must come out with the same bytes, as a seed promises. It returns the
// first directory.
func writeSeeded(t *testing.T, write func(dir string, n int, seed uint64) error, n int, seed uint64, same ...string) string {
	t.Helper()
	dir, again := t.TempDir(), t.TempDir()
	if err := write(dir, n, seed); err != nil {
		t.Fatal(err)
	}
	if err := write(again, 3, seed); err != nil {
		t.Fatal(err)
	}
	for _, f := range same {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: seed %d wrote different bytes twice", f, seed)
		}
	}
	return dir
}

// assertDrawn fails for each of want that no file of the stories under
// dir holds: what a kind promises to draw, it draws.
func assertDrawn(t *testing.T, dir string, want []string) {
	t.Helper()
	all := readTree(t, dir)
	for _, k := range want {
		if !strings.Contains(all, k) {
			t.Errorf("no story drew %q", k)
		}
	}
}

// assertDrawnWithin fails for each of want that none of the first max
// stories the kind writes from seed holds, as assertDrawn over a batch of
// max would, stopping at the story by which every one of want is drawn.
func assertDrawnWithin(t *testing.T, write func(dir string, n int, seed uint64) error, seed uint64, max int, want ...string) {
	t.Helper()
	left := slices.Clone(want)
	storiesUntil(t, write, seed, max, func(dir string) bool {
		all := readTree(t, dir)
		left = slices.DeleteFunc(left, func(k string) bool { return strings.Contains(all, k) })
		return len(left) == 0
	})
	for _, k := range left {
		t.Errorf("none of %d stories from seed %d drew %q", max, seed, k)
	}
}

// storiesUntil writes the kind's stories from seed one at a time, each
// into a folder of its own, until done says so of a story's folder or max
// are written, and reports whether done did. Story i depends on seed+i
// alone (writeSeeded checks it), so the stories are those of a batch of
// max, without writing the ones after the story that settles the test.
func storiesUntil(t *testing.T, write func(dir string, n int, seed uint64) error, seed uint64, max int, done func(dir string) bool) bool {
	t.Helper()
	dir := t.TempDir()
	for i := range max {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := write(d, 1, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
		if done(d) {
			return true
		}
	}
	return false
}

// An inbox id is ours n1, n2, … and upstream's a random ULID: both read
// as one placeholder, in a payload and in a world value alike, while an
// "id" that is no inbox id and an "n1" under another key still differ.
func TestInboxIDsNormalised(t *testing.T) {
	t.Parallel()
	turn := func(id, other string) *flowtest.TurnResult {
		return &flowtest.TurnResult{Events: []flowtest.ReportEvent{
			{Kind: "harness.returned", Payload: []byte(`{"data":{"id":"` + id + `","ok":true},"other":"` + other + `"}`)},
		}}
	}
	if d := payloadDiff(turn("01J9ZQ3V4W5X6Y7Z8A9B0C1D2E", "x"), turn("n1", "x"), ""); d != "" {
		t.Errorf("inbox ids differ: %s", d)
	}
	if d := payloadDiff(turn("n1", "x"), turn("n12", "x"), ""); d != "" {
		t.Errorf("inbox counters differ: %s", d)
	}
	if d := payloadDiff(turn("a1", "x"), turn("n1", "x"), ""); d == "" {
		t.Error("an id that is no inbox id matched n1")
	}
	if d := payloadDiff(turn("n1", "n1"), turn("n1", "n2"), ""); d == "" {
		t.Error("n1 under another key matched n2")
	}
	wa, wb := map[string]any{}, map[string]any{}
	applyWorld(wa, []flowtest.ReportEvent{{Kind: "world.update", Payload: []byte(`{"set":{"r":{"id":"01J9ZQ3V4W5X6Y7Z8A9B0C1D2E"}}}`)}}, "")
	applyWorld(wb, []flowtest.ReportEvent{{Kind: "world.update", Payload: []byte(`{"set":{"r":{"id":"n3"}}}`)}}, "")
	if !reflect.DeepEqual(wa, wb) {
		t.Errorf("bound inbox ids differ: %v, %v", wa, wb)
	}
}

// A failed host.agent.* call's host_error carries the session's random
// UUID in its data on both sides: two of them read as one placeholder,
// while another value under session_id still differs.
func TestSessionIDsNormalised(t *testing.T) {
	t.Parallel()
	world := func(sid string) map[string]any {
		w := map[string]any{}
		applyWorld(w, []flowtest.ReportEvent{{Kind: "world.update", Payload: []byte(`{"set":{"host_error":{"data":{"session_id":"` + sid + `"},"message":"m"}}}`)}}, "")
		return w
	}
	if a, b := world("92f5bb1c-e7c8-4a39-ab40-ccd5dca3d8f4"), world("baae9402-7fa7-4e49-9557-afbf0d9d6080"); !reflect.DeepEqual(a, b) {
		t.Errorf("session ids differ: %v, %v", a, b)
	}
	if a, b := world("92f5bb1c-e7c8-4a39-ab40-ccd5dca3d8f4"), world("s1"); reflect.DeepEqual(a, b) {
		t.Error("a session id that is no UUID matched one")
	}
}
