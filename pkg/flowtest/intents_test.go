package flowtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/refusal"
	"kitsoki/internal/testing/storytest"
)

// runIntentDir runs the static harness over a story directory's intents
// with baseline (if any) at threshold.
func runIntentDir(t *testing.T, dir, baseline string, threshold float64) *IntentReport {
	t.Helper()
	ld, err := NewRunner(Options{}).Story(filepath.Join(dir, "app.yaml"))
	if err != nil || ld.Machine == nil {
		t.Fatalf("load %s: %v %v", dir, err, ld.CompileErr)
	}
	suites, err := LoadIntents("", filepath.Join(dir, "intents", "*.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewStaticHarness("", filepath.Join(dir, "recording.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep := RunIntents(context.Background(), suites, IntentOptions{Harness: h, Machine: ld.Machine, Jobs: 3, HarnessType: "static"})
	if baseline != "" {
		b, err := ReadBaseline(baseline)
		if err != nil {
			t.Fatal(err)
		}
		rep.Regressions = b.Regressions(rep, threshold)
	}
	return rep
}

// zeroDurations clears the wall-clock fields of a decoded JSON report.
func zeroDurations(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["DurationMillis"] = 0
	fxs, _ := m["Fixtures"].([]any)
	for _, f := range fxs {
		for _, in := range f.(map[string]any)["Inputs"].([]any) {
			in.(map[string]any)["DurationMillis"] = 0
		}
	}
	return m
}

// TestIntentsMatchUpstream holds the static harness to the existing
// engine's verdicts, text and JSON report (testdata/intents/README.md).
func TestIntentsMatchUpstream(t *testing.T) {
	for _, c := range []struct{ name, story string }{
		{"probe", "testdata/intents/probe"},
		{"longnames", "testdata/intents/longnames"},
		{"cloak", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.story
			if dir == "" {
				dir = storytest.Corpus(t, "cloak")
			}
			golden := filepath.Join("testdata", "intents", c.name)
			matchUpstreamReports(t, runIntentDir(t, dir, "", 0), golden, zeroDurations)
		})
	}
}

func TestIntentsRegressionMatchesUpstream(t *testing.T) {
	dir := filepath.Join("testdata", "intents", "probe")
	rep := runIntentDir(t, dir, filepath.Join(dir, "baseline.json"), 0.1)
	var text bytes.Buffer
	WriteIntentsText(&text, rep)
	want, err := os.ReadFile(filepath.Join(dir, "upstream-regression.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != string(want) {
		t.Errorf("got\n%s\nwant\n%s", text.String(), want)
	}
	if !rep.Failed() {
		t.Error("a regression must fail the run")
	}
}

func TestIntentsBaselineRoundTrip(t *testing.T) {
	dir := filepath.Join("testdata", "intents", "probe")
	rep := runIntentDir(t, dir, "", 0)
	path := filepath.Join(t.TempDir(), "base.json")
	if b, err := ReadBaseline(path); err != nil || len(b.Fixtures) != 0 {
		t.Fatalf("a missing baseline is empty: %v %v", b, err)
	}
	if err := WriteBaseline("", path, rep, "intent-probe", "0.1.0", time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Fixtures) != len(rep.Fixtures) || b.Fixtures["hall::pos-count"] != 0.5 || b.AppID != "intent-probe" {
		t.Errorf("baseline = %+v", b)
	}
	if g := b.Regressions(rep, 0); len(g) != 0 {
		t.Errorf("a run against its own baseline regresses: %v", g)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBaseline(path); err == nil || !strings.Contains(err.Error(), "--update-baseline") {
		t.Errorf("a broken baseline: %v", err)
	}
}

func TestIntentsParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"test_kind: intents\nstate: [a\n", "f.yaml:1:1: YAML does not parse"},
		{"test_kind: intents\nstate: a\nfixtures:\n  - id: x\n    runs: many\n", "f.yaml:5:11: intent fixture: fixtures[0].runs: cannot unmarshal !!str `many` where an integer is expected"},
		{"test_kind: flow\nturns: []\n", ""},
		// every document is read as an intents one before its kind
		// (intent-docs), and the error names the key
		{"test_kind: intents\nstate: a\n---\n- a\n- list\n", "f.yaml:4:1: intent fixture: the document is a list"},
		{"test_kind: intents\nstate: a\n---\n~\n", "the document is null"},
		{"test_kind: intents\nstate: a\n---\n# only a comment\n", ""},
		{"test_kind: flow\nstate: [x]\n", "f.yaml:2:8: intent fixture: state: cannot unmarshal !!seq where a string is expected"},
		{"test_kind: intents\nstate: a\nfixtures:\n  - id: x\n    intent: {name: go, slots: 3}\n", "f.yaml:5:31: intent fixture: fixtures[0].intent.slots: cannot unmarshal !!int `3` where a mapping is expected"},
		{"test_kind: intents\nstate: a\nfixtures:\n  - id: x\n    runs: '-2'\n", "f.yaml:5:1: intent fixture: cannot unmarshal -2 into int (overflow)"},
		// a value holding a newline: shown escaped, on one line, at its place
		{"test_kind: intents\nstate: a\nfixtures:\n  - id: x\n    min_pass_rate: \"hi\\nthere\"\n", "f.yaml:5:20: intent fixture: fixtures[0].min_pass_rate: cannot unmarshal !!str `hi\\nthere` where a number is expected; write a number"},
	} {
		_, err := ParseIntents("f.yaml", []byte(c.src))
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestStaticHarnessRefusesClarify(t *testing.T) {
	p := filepath.Join(t.TempDir(), "recording.yaml")
	if err := os.WriteFile(p, []byte("kind: recording\nentries:\n  - {state: a, input: x, intent: {name: go}}\n  - {state: a, input: huh, clarify: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewStaticHarness("", p)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf(`recording %q: entry 1 is incomplete (state="a" input="huh"`, p)) {
		t.Errorf("got %v", err)
	}
}

func FuzzParseIntents(f *testing.F) {
	for _, p := range []string{"testdata/intents/probe/intents/hall.yaml", "testdata/intents/probe/intents/yard.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("test_kind: intents\nfixtures: [{id: a, expect_failure: {any_of: 3}}]\n---\n---"))
	f.Add([]byte("test_kind: intents\nstate: a\nfixtures:\n  - {id: x, inputs: [a], intent: go, min_pass_rate: \"hi\\nthere\"}\n"))
	f.Add([]byte("test_kind: intents\nstate: a\nfixtures:\n  - {id: x, inputs: [a], intent: go, min_pass_rate: \"hi\"}\n"))
	f.Add([]byte("test_kind: intents\nstate: a\ndefaults: {runs: \"x\", min_pass_rate: [1]}\nfixtures: [{id: x, inputs: [a], intent: go}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ss, err := ParseIntents("f.yaml", data)
		if err != nil {
			refusal.Leads(t, data, err.Error(), "f.yaml")
		}
		for _, s := range ss {
			for _, fx := range s.Fixtures {
				if fx.Runs < 1 || fx.MinPassRate <= 0 {
					t.Errorf("defaults not applied: %+v", fx)
				}
			}
		}
	})
}

// TestIntentMergeRefusals: the merge keys upstream's decoder refuses in an
// intents document, each a parse error naming the line, the place and the
// key (merge-keys-refused); the ones it reads parse (merge-keys).
func TestIntentMergeRefusals(t *testing.T) {
	const h = "test_kind: intents\nstate: a\n"
	for _, c := range []struct{ src, want string }{
		{h + "fixtures:\n  - <<: {id: a, inputs: [x]}\n    id: b\n", `f.yaml:5:5: intent fixture: fixtures[0]: key "id" is given twice through a merge key (<<:, first at 4:10)`},
		{"<<: {test_kind: intents, state: b}\nstate: a\n", `f.yaml:2:1: intent fixture: document: key "state" is given twice through a merge key`},
		{h + "defaults: {<<: {runs: 3}, runs: 2}\n", `f.yaml:3:27: intent fixture: defaults: key "runs" is given twice`},
		{h + "fixtures:\n  - {id: a, intent: {<<: {name: b}, name: go}}\n", `fixtures[0].intent: key "name" is given twice`},
		{h + "fixtures:\n  - {id: a, expect_failure: {<<: {any_of: [X]}, any_of: [Y]}}\n", `fixtures[0].expect_failure: key "any_of" is given twice`},
		{h + "fixtures:\n  - {inputs: [x], <<: [{id: a}, {id: b}]}\n", `fixtures[0]: <<: merges a list of mappings, which the existing engine cannot merge here`},
		{h + "fixtures:\n  - {id: a, intent: {name: go, slots: {<<: [{d: s}, {d: w}]}}}\n", `fixtures[0].intent.slots: key "d" is in two mappings of the merged list`},
		{h + "fixtures:\n  - {id: a, <<: {runs: 2}, <<: {min_pass_rate: 0.5}}\n", `a second merge key`},
		{h + "fixtures:\n  - {id: a, <<: 5}\n", `<<: merges mappings, and this is the scalar "5"`},
		{h + "fixtures:\n  - {id: a, <<: ~}\n", `<<: merges mappings, and this is null`},
		// a second document: the lines are the file's
		{h + "---\n" + h + "fixtures:\n  - &f {id: a}\n  - <<: *f\n    id: b\n", `f.yaml:9:5: intent fixture: fixtures[1]: key "id" is given twice through a merge key (<<:, first at 7:9)`},
	} {
		_, err := ParseIntents("f.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %q", c.src, err, c.want)
		}
	}
	for _, c := range []struct {
		src  string
		want map[string]any
	}{
		{h + "fixtures:\n  - {id: a, intent: {name: go, slots: {d: w, <<: {d: s}}}}\n", map[string]any{"d": "s"}},
		{h + "fixtures:\n  - {id: a, intent: {name: go, slots: {<<: {d: w}, d: s}}}\n", map[string]any{"d": "s"}},
		{h + "fixtures:\n  - {id: a, intent: {name: go, slots: {x: {<<: [{c: 1}, {c: 2}]}}}}\n", map[string]any{"x": map[string]any{"c": 2}}},
		{h + "g: &g {name: go}\nfixtures:\n  - {id: a, intent: {<<: *g, slots: {d: s}}}\n", map[string]any{"d": "s"}},
	} {
		ss, err := ParseIntents("f.yaml", []byte(c.src))
		if err != nil || len(ss) != 1 || len(ss[0].Fixtures) != 1 {
			t.Fatalf("%q: %v", c.src, err)
		}
		if fx := ss[0].Fixtures[0]; fx.Intent != "go" || !reflect.DeepEqual(fx.Slots, c.want) {
			t.Errorf("%q: intent %q slots %v, want go %v", c.src, fx.Intent, fx.Slots, c.want)
		}
	}
}
