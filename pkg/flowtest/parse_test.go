package flowtest

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/refusal"
	"kitsoki/pkg/diag"
)

func parseOne(t *testing.T, src string) ([]*Fixture, []diag.Diagnostic) {
	t.Helper()
	return parse("flows/x.yaml", []byte(src))
}

func hasDiag(ds []diag.Diagnostic, sev diag.Severity, line, col int, text string) bool {
	for _, d := range ds {
		if d.Severity == sev && d.Line == line && (col == 0 || d.Col == col) && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

func TestParsePositionsAcrossDocuments(t *testing.T) {
	src := `test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_state: b
---
test_kind: host_cassette
---
# second flow
test_kind: flow
initial_state: b
bogus: 1
turns:
  - intent: go
    expect_stat: b
    expect_world_final: { x: 1 }
host_handlers:
  host.run:
    by_call:
      c1: { data: {}, delay: 20ms }
`
	fxs, ds := parseOne(t, src)
	if len(fxs) != 2 || fxs[0].Docs != 2 || fxs[1].Doc != 2 || fxs[1].Name() != "flows/x.yaml#2" {
		t.Fatalf("documents: %d", len(fxs))
	}
	if p := fxs[1].Turns[0].Pos; p.Line != 14 || p.Col != 5 {
		t.Errorf("turn position across the --- split: %v", p)
	}
	for _, want := range []struct {
		line, col int
		text      string
	}{
		{12, 1, `unknown key "bogus"`},
		{15, 5, "unknown key \"expect_stat\" is ignored; did you mean `expect_state`?"},
		{16, 5, `"expect_world_final" is ignored`},
		{20, 23, `"delay" is ignored`},
	} {
		if !hasDiag(ds, diag.Warning, want.line, want.col, want.text) {
			t.Errorf("no warning %d:%d %q in %v", want.line, want.col, want.text, ds)
		}
	}
	if fxs[1].Turns[0].Intent.Name != "go" {
		t.Errorf("intent given as a bare name")
	}
}

func TestParseErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		text      string
	}{
		{"test_kind: flow\nturns:\n  - intent: { name: go\n", 2, 0, "YAML does not parse"},
		{"test_kind: flow\nturns:\n  - expect_state: a\n", 3, 5, "a turn needs one of intent:, input: or advance_clock:"},
		{"test_kind: flow\nturns:\n  - advance_clock: banana\n", 3, 20, `invalid duration "banana"`},
		{"test_kind: flow\nuse_orchestrator: true\nmode: weird\nturns: []\n", 3, 7, `invalid mode "weird"`},
		{"test_kind: flow\nturns: {a: 1}\n", 2, 8, "turns: expected a list"},
		{"test_kind: flow\nexpect_terminal: maybe\nturns: []\n", 2, 18, "expected true or false"},
		{"test_kind: flow\nhost_cassette: c.yaml\nhost_handlers: {host.run: {data: {}}}\nturns: []\n", 2, 1, "mutually exclusive"},
		{"test_kind: flow\nturns:\n  - intent: { name: go }\n    expect_inbox: { unread: many }\n", 4, 29, "expected a whole number"},
		// upstream reads an empty input: or advance_clock: as the key left
		// out ("neither intent nor input is set" / "turn requires one of
		// intent:, input:, or advance_clock": the whole run stops)
		{"test_kind: flow\nturns:\n  - input: \"\"\n", 3, 5, "a turn needs one of intent:, input: or advance_clock:"},
		{"test_kind: flow\nuse_orchestrator: true\nturns:\n  - advance_clock: \"\"\n", 4, 5, "a turn needs one of intent:, input: or advance_clock:"},
		// the legacy path has no clock: a clock-only turn stops the run there
		{"test_kind: flow\nuse_orchestrator: false\nturns:\n  - intent: { name: go }\n  - advance_clock: 1s\n", 5, 5, "advance_clock: without intent: or input: needs the orchestrator path"},
		// upstream's orchestrator rig panics writing a non-finite number
		// of initial_world or world_override to its log
		{"test_kind: flow\nuse_orchestrator: true\ninitial_world: {f: .inf}\nturns: []\n", 3, 17, "initial_world.f: holds an infinite or NaN number"},
		{"test_kind: flow\nhost_handlers: {host.run: {}}\nturns:\n  - intent: { name: go }\n    world_override: {m: {x: [.nan]}}\n", 5, 22, "turns[0].world_override.m: holds an infinite or NaN number"},
	} {
		_, ds := parseOne(t, tc.src)
		if !hasDiag(ds, diag.Error, tc.line, tc.col, tc.text) {
			t.Errorf("%q: no error %d:%d %q; got %v", tc.src, tc.line, tc.col, tc.text, ds)
		}
	}
}

// Upstream's legacy path keeps initial_world and world_override in
// memory: a non-finite number there runs (probe flowwalk p15).
func TestParseNonFiniteOnLegacyPath(t *testing.T) {
	_, ds := parseOne(t, "test_kind: flow\ninitial_world: {f: .inf}\nturns:\n  - intent: { name: go }\n    world_override: {g: .nan}\n")
	if diag.HasErrors(ds) {
		t.Fatalf("legacy path refused a non-finite value: %v", ds)
	}
}

// A fixture slot upstream cannot log (the transition is lost there, and
// the session stays put) is run, with a warning naming the difference.
func TestParseNonFiniteSlotWarns(t *testing.T) {
	_, ds := parseOne(t, "test_kind: flow\nuse_orchestrator: true\nturns:\n  - intent: { name: go, slots: {v: .inf} }\n")
	if diag.HasErrors(ds) || !hasDiag(ds, diag.Warning, 4, 33, "turns[0].intent.slots.v: holds an infinite or NaN number") {
		t.Fatalf("want one warning at the slot: %v", ds)
	}
}

// What upstream's decoder accepts, we accept too, with a warning: a
// quoted whole number where a number is wanted.
func TestParseLenientLikeUpstream(t *testing.T) {
	fxs, ds := parseOne(t, "test_kind: flow\ninitial_state: b\nexpect_terminal: true\nturns:\n  - intent: {name: go}\n    expect_world: { k: 2 }\n    expect_host_calls: [{ handler: h, times: \"2\" }]\n")
	if diag.HasErrors(ds) || len(fxs) != 1 {
		t.Fatalf("%v", ds)
	}
	fx := fxs[0]
	if fx.InitialState != "b" || fx.ExpectTerminal == nil || !*fx.ExpectTerminal || *fx.Turns[0].ExpectHostCalls[0].Times != 2 ||
		len(fx.Turns[0].ExpectWorld) != 1 || fx.Turns[0].ExpectWorld[0].Value != int64(2) {
		t.Fatalf("%+v %+v", fx, fx.Turns[0])
	}
	if !hasDiag(ds, diag.Warning, 7, 46, `"2" read as the number 2`) {
		t.Errorf("no warning in %v", ds)
	}
}

// What upstream's decoder refuses (the whole file, exit 2) is an error
// naming the fix: a key written twice in any mapping, a quoted or YAML 1.1
// boolean (probe guidewalk p7bool). Earlier builds read both with a
// warning, believing upstream did.
// TestMergeRefusalNamesTheFilesLines: a refusal's "first at" place in a
// later document is the file's line, as the error's own (it was the
// document's).
func TestMergeRefusalNamesTheFilesLines(t *testing.T) {
	_, ds := parseOne(t, "test_kind: flow\ninitial_state: a\nturns: []\n---\ntest_kind: flow\ninitial_state: a\nturns:\n  - &t\n    intent: {name: go}\n  - <<: *t\n    intent: {name: stay}\n")
	if !hasDiag(ds, diag.Error, 11, 5, `turns[1]: key "intent" is given twice through a merge key (<<:, first at 9:5)`) {
		t.Errorf("got %v", ds)
	}
}

func TestParseRefusedLikeUpstream(t *testing.T) {
	_, ds := parseOne(t, "test_kind: flow\ninitial_state: a\ninitial_state: b\nexpect_terminal: \"true\"\nuse_orchestrator: yes\nturns:\n  - intent: {name: go, slots: {s: 1, s: 2}}\n    expect_world: { k: 1, k: 2 }\n")
	for _, w := range []struct {
		line, col int
		text      string
	}{
		{3, 1, `fixture: key "initial_state" appears twice (first at 2:1): the existing engine refuses this fixture file (mapping key "initial_state" already defined); keep one`},
		{4, 18, `expect_terminal: "true" is not a boolean: the existing engine refuses this fixture file (cannot unmarshal string into bool); write true`},
		{5, 19, `use_orchestrator: "yes" is not a boolean`},
		{7, 38, `key "s" appears twice (first at 7:32)`},
		{8, 27, `key "k" appears twice (first at 8:21)`},
	} {
		if !hasDiag(ds, diag.Error, w.line, w.col, w.text) {
			t.Errorf("no error %d:%d %q in %v", w.line, w.col, w.text, ds)
		}
	}
}

// A tab before a key of a flow mapping refuses the fixture file, also a
// cassette sitting in flows/, which upstream parses as a fixture (probe
// /tmp/hunt97/s7/v/tabs: `parse fixture in "flows/c.yaml": [5:34] tab
// character cannot use as a map key directly`, the whole run stops).
func TestParseRefusesFlowKeyTab(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
	}{
		{"test_kind: flow\ninitial_state: a\nturns:\n  - intent: {name: go,\tslots: {}}\n", 4, 24},
		{"kind: host_cassette\nepisodes:\n  - {id: r,\tmatch: {handler: host.run}}\n", 3, 13},
	} {
		_, ds := parseOne(t, c.src)
		if !hasDiag(ds, diag.Error, c.line, c.col, "the existing engine refuses this fixture file (tab character cannot use as a map key directly)") {
			t.Errorf("%q: got %v", c.src, ds)
		}
	}
	if _, ds := parseOne(t, "test_kind: flow\ninitial_state: a\nturns:\n  - intent: {name: go,\n\tslots: {}}\n"); len(ds) != 0 {
		t.Errorf("a tab after a line break: %v", ds)
	}
}

func TestParseSkipsOtherKinds(t *testing.T) {
	fxs, ds := parseOne(t, "kind: host_cassette\nepisodes: []\n---\ntest_kind: flow_disabled_pending_runner_support\nturns: [{}]\n")
	if len(fxs) != 0 || len(ds) != 0 {
		t.Fatalf("non-flow documents are skipped silently: %v %v", fxs, ds)
	}
}

// A "billion laughs" of aliases is an error, not an out-of-memory.
func TestParseAliasBomb(t *testing.T) {
	src := "test_kind: flow\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\ninitial_world: { k: *e }\nturns: []\n"
	_, ds := parseOne(t, src)
	if !hasDiag(ds, diag.Error, 7, 0, "value too large") {
		t.Fatalf("alias bomb: %v", ds)
	}
}

func TestParseDuration(t *testing.T) {
	for s, want := range map[string]string{"": "0s", "500ms": "500ms", "9m": "9m0s", "11d": "264h0m0s", "1.5d": "36h0m0s"} {
		d, err := parseDuration(s)
		if err != nil || d.String() != want {
			t.Errorf("%q: %v %v", s, d, err)
		}
	}
	for _, s := range []string{"banana", "1d2h", "d", "1e400d", "5 d"} {
		if _, err := parseDuration(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

// Any day count parses, as upstream: a negative one is a negative
// duration (no advance, no delay), one past time.Duration's range the most
// negative duration, as amd64 converts it (conformance fixture-day-range);
// past the range upward is warned at, an advance_clock and a stub delay
// alike, and nothing of it is an error.
func TestParseDurationDayRange(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"-1d": -24 * time.Hour, "-0.5d": -12 * time.Hour, "106751d": 106751 * 24 * time.Hour,
		"106752d": math.MinInt64, "Infd": math.MinInt64, "-Infd": math.MinInt64, "-9999999d": math.MinInt64,
	} {
		if d, err := parseDuration(s); err != nil || d != want {
			t.Errorf("%q = %v %v, want %v", s, d, err, want)
		}
	}
	_, ds := parseOne(t, "test_kind: flow\nhost_handlers:\n  host.run: { data: {}, delay: Infd }\nturns:\n  - advance_clock: 106752d\n  - advance_clock: -1d\n")
	if !hasDiag(ds, diag.Warning, 3, 0, "delay: \"Infd\" is more days than a duration holds") || !hasDiag(ds, diag.Warning, 5, 0, "advance_clock: \"106752d\" is more days than a duration holds") {
		t.Fatalf("want a flow-nan-duration warning at the delay and the advance: %v", ds)
	}
	for _, d := range ds {
		if d.Severity == diag.Error || d.Line == 6 {
			t.Errorf("want no error and nothing at -1d: %v", d)
		}
	}
}

// A NaN day count parses, as upstream, and is 0 whatever the CPU makes of
// converting NaN (the most negative duration on amd64); it is warned at,
// an advance_clock and a stub delay alike.
func TestParseDurationNaNDays(t *testing.T) {
	for _, s := range []string{"NaNd", "nand", " NaNd "} {
		if d, err := parseDuration(s); err != nil || d != 0 {
			t.Errorf("%q = %v %v, want 0", s, d, err)
		}
	}
	_, ds := parseOne(t, "test_kind: flow\nhost_handlers:\n  host.run: { data: {}, delay: NaNd }\nturns:\n  - advance_clock: NaNd\n")
	if !hasDiag(ds, diag.Warning, 3, 0, "delay: \"NaNd\" is not a number of days") || !hasDiag(ds, diag.Warning, 5, 0, "advance_clock: \"NaNd\" is not a number of days") {
		t.Fatalf("want a flow-nan-duration warning at the delay and the advance: %v", ds)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Errorf("NaNd refused: %v", d)
		}
	}
}

func FuzzParseFixture(f *testing.F) {
	for _, s := range []string{
		"test_kind: flow\ninitial_state: a\nturns:\n  - intent: { name: go, slots: { x: 1 } }\n    expect_world: { a: [1, {b: 2}] }\n",
		"test_kind: flow\nhost_handlers:\n  host.run:\n    by_call: { c: { data: { x: 1 } } }\n    delay: 2s\nturns:\n  - advance_clock: 1d\n",
		"test_kind: flow\n---\n----\n--- x\ntest_kind: flow\nturns: [{input: hi}]",
		"test_kind: flow\nturns:\n  - expect_jobs: [{namespace: a, status: done}]\n    expect_inbox: {unread: 1, severities: [info]}\n    intent: x\n",
		"test_kind: flow\na: &a [1]\nb: *a\n<<: {c: 1}\n",
		"test_kind: flow\nturns:\n  - intent: {name: [x], slots: 3}\n    expect_world: 1\n    expect_jobs: {a: 1}\n    advance_clock: [1]\n",
		"test_kind: flow\nhost_handlers: {host.run: {by_call: [1], delay: {a: 1}}}\ninitial_world: [1]\nturns: {a: 1}\n",
		"test_kind: flow\nexpect_terminal: \"true\"\nturns:\n  - intent: go\n",
	} {
		f.Add([]byte(s))
	}
	// goldens holding the keys the fixtures above leave out (host_bindings,
	// expect_files, expect_events_exact, expect_error, expect_host_calls)
	for _, g := range []string{
		"../host/testdata/conformance/host-bindings-real-agent/flows/go-run.yaml",
		"../engine/testdata/conformance/expect-files-written/flows/f05.yaml",
		"../engine/testdata/conformance/expect-empty-exact-keys/flows/empty_orch.yaml",
		"../engine/testdata/conformance/lint-error-code-empty/flows/h_legacy_declared_rejected.yaml",
		"../engine/testdata/conformance/fixture-null-items/flows/null_items_legacy.yaml",
	} {
		b, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fxs, ds := parse("f.yaml", data)
		for _, d := range ds {
			if d.Line < 1 || d.File != "f.yaml" || d.Message == "" {
				t.Fatalf("unpositioned diagnostic %+v", d)
			}
			refusal.Leads(t, data, d.Pos()+": "+d.Message, "f.yaml:")
		}
		for _, fx := range fxs {
			_ = fx.Orchestrated()
			_ = fx.Name()
		}
	})
}

// FuzzParseRecording: a refusal names the recording, on one line, in
// YAML's terms (no Go type); a recording taken has entries, and looking up
// an entry's own state and input finds the first entry in file order
// with them (a clarify entry refuses, naming the file).
func FuzzParseRecording(f *testing.F) {
	f.Add([]byte("kind: recording\nentries:\n  - { state: a, input: go, intent: { name: go, slots: { x: 1 } } }\n"))
	f.Add([]byte("kind: recording\nentries:\n  - { state: a, input: hm, clarify: true }\n"))
	f.Add([]byte("kind: other\n"))
	f.Add([]byte("kind: recording\nentries:\n  - { state: a, input: hm, clarify: true, intent: {name: \"x\\ny\"} }\n"))
	f.Add([]byte("kind: recording\nentries:\n  - { state: a, input: Go, intent: {name: x} }\n  - { state: a, input: Go, intent: {name: y} }\n  - {state: b, input: \" go\", clarify: true}\n"))
	f.Add([]byte("kind: recording\nentries: {a: 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseRecording("r.yaml", data)
		if err != nil {
			refusal.Leads(t, data, err.Error(), `recording "r.yaml"`)
			return
		}
		if len(r.Entries) == 0 {
			t.Fatal("a recording without entries parsed")
		}
		for _, e := range r.Entries {
			first := r.Entries[slices.IndexFunc(r.Entries, func(o RecordingEntry) bool { return o.State == e.State && o.Input == e.Input })]
			got, err := r.Lookup(e.State, e.Input)
			switch {
			case first.Clarify && (err == nil || !strings.Contains(err.Error(), "r.yaml")):
				t.Fatalf("%q: (%q, %q) is a clarification, got %v, %v", data, e.State, e.Input, got, err)
			case !first.Clarify && (err != nil || got.Intent != first.Intent):
				t.Fatalf("%q: (%q, %q) routes to %q, got %v, %v", data, e.State, e.Input, first.Intent, got, err)
			}
		}
	})
}

// Upstream reads mode: only for its orchestrator rig: a legacy-path
// document with a bad mode runs (a warning), an orchestrator-path one
// does not (conformance expect-state-texts).
func TestParseModeOnlyOnOrchestratorPath(t *testing.T) {
	fxs, ds := parseOne(t, "test_kind: flow\nmode: batch\nturns: []\n")
	if diag.HasErrors(ds) || len(fxs) != 1 || !hasDiag(ds, diag.Warning, 2, 7, `invalid mode "batch" is ignored on the legacy path`) {
		t.Fatalf("legacy: %v", ds)
	}
	_, ds = parseOne(t, "test_kind: flow\nmode: batch\nhost_handlers: {host.run: {data: {}}}\nturns: []\n")
	if !hasDiag(ds, diag.Error, 2, 7, `invalid mode "batch"`) {
		t.Fatalf("orchestrator: %v", ds)
	}
}

// Whole-number assertions decode as the existing engine's: a decimal is
// truncated toward zero, text follows story.IncrementText, null leaves the
// assertion unset; each with a warning naming what to write. What its
// decoder refuses stays an error. And intent: ~ is no intent at all.
// Verdicts of the existing engine (probe guidewalk p7types).
func TestParseWholeNumbersLikeUpstream(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want *int // nil: unset
		err  bool
	}{
		{"0.5", new(0), false}, {"-1.5", new(-1), false}, {`"1.5"`, new(1), false}, {"1e0", new(1), false},
		{`"+1"`, new(1), false}, {"2.5e-1", new(0), false}, {"1.0", new(1), false}, {"~", nil, false},
		{`"-1"`, nil, true}, {`" 0"`, nil, true}, {`""`, nil, true}, {"-1e0", nil, true}, {`"-0.5"`, nil, true}, {"9.3e18", nil, true},
	} {
		fxs, ds := parseOne(t, "test_kind: flow\nturns:\n  - intent: { name: go }\n    expect_inbox: { unread: "+tc.val+" }\n")
		if tc.err {
			if !hasDiag(ds, diag.Error, 4, 29, "expected a whole number") {
				t.Errorf("%s: no error in %v", tc.val, ds)
			}
			continue
		}
		if diag.HasErrors(ds) || len(fxs) != 1 {
			t.Errorf("%s: %v", tc.val, ds)
			continue
		}
		got := fxs[0].Turns[0].ExpectInbox.Unread
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: unread %v, want %v", tc.val, got, tc.want)
		}
		if tc.val != "1.0" && !hasDiag(ds, diag.Warning, 4, 29, "") {
			t.Errorf("%s: no warning in %v", tc.val, ds)
		}
	}
	_, ds := parseOne(t, "test_kind: flow\nturns:\n  - intent: ~\n")
	if !hasDiag(ds, diag.Error, 3, 5, "a turn needs one of intent:, input: or advance_clock:") {
		t.Errorf("intent: ~ ran: %v", ds)
	}
}

// A known key with a null value is read as absent, with a warning; a null
// inside a value map stays a value (conformance fixture-null-keys).
func TestParseNullKeyIsAbsent(t *testing.T) {
	fxs, ds := parseOne(t, "test_kind: flow\nexpect_no_errors: ~\nturns:\n  - intent: { name: go }\n    expect_error:\n    expect_world: { k: ~ }\n")
	if diag.HasErrors(ds) || len(fxs) != 1 {
		t.Fatalf("%v", ds)
	}
	fx := fxs[0]
	if fx.ExpectNoErrors != nil || fx.Turns[0].ExpectError != nil || len(fx.Turns[0].ExpectWorld) != 1 || fx.Turns[0].ExpectWorld[0].Value != nil {
		t.Errorf("%+v %+v", fx, fx.Turns[0])
	}
	if !hasDiag(ds, diag.Warning, 2, 19, `expect_no_errors: null is read as if "expect_no_errors" were absent`) || !hasDiag(ds, diag.Warning, 5, 18, `turns[0].expect_error: null is read as if "expect_error" were absent`) {
		t.Errorf("%v", ds)
	}
}
