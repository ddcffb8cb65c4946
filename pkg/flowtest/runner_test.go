package flowtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

const rigApp = "testdata/rig/app.yaml"

// runFlow writes a fixture (and extra files) into a temporary flows/
// directory and runs its documents against the rig story.
func runFlow(t *testing.T, fixture string, extra map[string]string, o Options) []*Result {
	t.Helper()
	tree := map[string]string{"f.yaml": fixture}
	for name, body := range extra {
		if name != "f.yaml" {
			tree[name] = body
		}
	}
	dir := filepath.Join(t.TempDir(), "flows")
	storytest.WriteTree(t, dir, tree)
	path := filepath.Join(dir, "f.yaml")
	app, _ := filepath.Abs(rigApp)
	files, ds, err := DiscoverUnder("", nil, []string{app}, path, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("fixture does not parse: %s", d)
		}
	}
	if len(files) != 1 {
		t.Fatalf("no fixture found in %s", path)
	}
	return NewRunner(o).Run(context.Background(), files)
}

func one(t *testing.T, fixture string) *Result {
	t.Helper()
	rs := runFlow(t, fixture, nil, Options{Jobs: 1})
	if len(rs) != 1 {
		t.Fatalf("got %d results", len(rs))
	}
	return rs[0]
}

func wantPass(t *testing.T, r *Result) {
	t.Helper()
	if r.Fatal != nil {
		t.Fatalf("fatal: %s", r.Fatal.Detail())
	}
	if !r.Passed() {
		var b strings.Builder
		for _, f := range r.Failures {
			b.WriteString(f.Detail() + "\n")
		}
		t.Fatalf("fixture failed:\n%s", b.String())
	}
}

// wantFail checks the fixture failed with a message containing each want,
// and returns the failures.
func wantFail(t *testing.T, r *Result, wants ...string) []Failure {
	t.Helper()
	if r.Passed() {
		t.Fatalf("fixture passed; want failures %q", wants)
	}
	var all strings.Builder
	for _, f := range r.Failures {
		all.WriteString(f.Message + "\n")
	}
	if r.Fatal != nil {
		all.WriteString(r.Fatal.Message + "\n")
	}
	for _, w := range wants {
		if !strings.Contains(all.String(), w) {
			t.Errorf("no failure contains %q; failures:\n%s", w, all.String())
		}
	}
	return r.Failures
}

const stubs = `
host_handlers:
  host.run:
    data: { stdout: "hi", nested: { a: 1, b: { c: [1, 2] } }, list: [x, y] }
`

// expect_world: listed top-level keys only, nested values exact, 3 ==
// 3.0, a missing key equals null (flow-format.md §3.3).
func TestExpectWorldRules(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_state: b
    expect_world:
      out: hi
      obj: { a: 1.0, b: { c: [1, 2.0] } }
      items: [x, y]
      n: 0.0
      missing_key: null
`))
	fs := wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_world:
      obj: { a: 1 }
      items: [y, x]
      n: "0"
      out: null
`), `expect_world["obj"]: got {"a":1,"b":{"c":[1,2]}} (object), want {"a":1} (object)`,
		`expect_world["items"]: got ["x","y"] (list), want ["y","x"] (list)`,
		`expect_world["n"]: got 0 (number), want "0" (string)`,
		`expect_world["out"]: got "hi" (string), want null (null)`)
	if fs[0].Pos.Line != 10 || fs[0].Pos.Col != 7 || len(fs[0].WorldDiff) != 1 || !strings.Contains(fs[0].WorldDiff[0], "obj.b: unexpected key") {
		t.Errorf("first failure not placed at the key with a minimal diff: %+v", fs[0])
	}
}

func TestEqualRule(t *testing.T) {
	tenth := 0.1
	for _, tc := range []struct {
		a, b any
		eq   bool
	}{
		{int64(3), 3.0, true}, {3, uint64(3), true}, {"3", int64(3), false}, {"", nil, false}, {nil, nil, true},
		{map[string]any{"a": []any{1, 2}}, map[string]any{"a": []any{1.0, 2.0}}, true},
		{[]any{"x", "y"}, []any{"y", "x"}, false}, {map[string]any{"a": 1}, map[string]any{"a": 1, "b": nil}, false},
		{true, "true", false}, {tenth + 2*tenth, 0.3, false},
		// Already-normalised values (event payloads) compare again.
		{norm(map[string]any{"l": []map[string]any{{"s": 200}}}), map[string]any{"l": []any{map[string]any{"s": 200.0}}}, true},
	} {
		if got := equal(tc.a, tc.b); got != tc.eq {
			t.Errorf("equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.eq)
		}
	}
}

func TestStateAssertions(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_state: b
    expect_not_state: a
    expect_state_in: [x, b]
  - intent: { name: back }
    expect_state: a
  - intent: { name: finish }
    expect_state: done
expect_terminal: true
expect_no_errors: true
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_state: a
    expect_not_state: b
    expect_state_in: [x, y]
expect_terminal: true
`), `expect_state: got "b", want "a"`, `expect_not_state: state must not be "b"`, `expect_state_in: "b" not in [x y]`, `expect_terminal: state "b" is not terminal`)
}

// expect_error runs no other assertion; a rejection still counts for
// expect_no_errors; an unexpected rejection fails the turn.
func TestExpectErrorAndNoErrors(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: back }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE, allowed_contains: [go] }
    expect_state: nowhere
  - intent: { name: locked }
    expect_error: { code: GUARD_FAILED }
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: back }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
expect_no_errors: true
`), "expect_no_errors: there were validation errors")
	wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: back }
    expect_state: a
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
`), `unexpected validation error: INTENT_NOT_ALLOWED_IN_STATE`, `expected error "GUARD_FAILED" but got none`)
	// The orchestrator path reports a missing required slot as a clarify
	// outcome, not a rejection (upstream), so MISSING_SLOTS never matches.
	wantFail(t, one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: need }
    expect_error: { code: MISSING_SLOTS }
`), `expected error "MISSING_SLOTS" but got none (mode=clarify)`)
	// The legacy path rejects it, with missing_slots checked.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: need }
    expect_error: { code: MISSING_SLOTS, missing_slots: [v] }
  - intent: { name: need, slots: { v: "" } }
    expect_state: b
`))
}

// Stubs: by_call beats by_op beats the top level; error and data both
// take effect; infra_error is an infra error in the world; an unstubbed
// handler is "no handler registered".
func TestStubResolution(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run:
    data: { stdout: "top" }
    by_call:
      first: { data: { stdout: "by-call" } }
turns:
  - intent: { name: go }
    expect_world: { out: by-call }
`))
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run:
    data: { stdout: "top" }
    error: "boom"
turns:
  - intent: { name: go }
    expect_world: { out: top, last_error: boom }
`))
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run:
    infra_error: "disk on fire"
turns:
  - intent: { name: go }
    expect_world: { out: "", last_error: "disk on fire" }
`))
	wantPass(t, one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: go }
    expect_world: { last_error: 'host: no handler registered for "host.run"' }
    expect_host_calls:
      - handler: host.run
        times: 1
        args: { call: first, cmd: "echo 1" }
`))
}

func TestStubBadDelayIsAnInfraError(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run: { data: { stdout: x }, delay: "soon" }
turns:
  - intent: { name: go }
    expect_world: { out: "", last_error: "stub host.run: parse delay: app.ParseDuration: \"soon\": time: invalid duration \"soon\"" }
`))
}

func TestStubByOp(t *testing.T) {
	s := &Stub{Name: "host.git", Data: map[string]any{"x": 1}, ByOp: map[string]*Envelope{"push": {Data: map[string]any{"x": 2}}},
		ByCall: map[string]*Envelope{"c1": {InfraError: "down"}}}
	h := s.Handler()
	res, err := h.Call(context.Background(), hostCall("host.git.push", "push", nil))
	if err != nil || res.Data["x"] != 2 {
		t.Fatalf("by_op: %v %v", res, err)
	}
	res, err = h.Call(context.Background(), hostCall("host.git.pull", "pull", nil))
	if err != nil || res.Data["x"] != 1 {
		t.Fatalf("top level: %v %v", res, err)
	}
	if _, err = h.Call(context.Background(), hostCall("host.git.push", "push", map[string]any{"call": "c1"})); err == nil || err.Error() != "down" {
		t.Fatalf("by_call infra_error before by_op: %v", err)
	}
	s.Delay, s.RequestClarification = 9*time.Minute, "which?"
	res, _ = h.Call(context.Background(), hostCall("host.git", "", nil))
	if res.Delay != 9*time.Minute || res.Clarification == nil || res.Clarification.Question != "which?" {
		t.Fatalf("delay and clarification: %+v", res)
	}
}

func TestHostCallAssertions(t *testing.T) {
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_host_calls:
      - { handler: host.run, times: 2 }
      - { handler: host.run, args: { cmd: "nope" } }
    expect_no_host_calls: [host.run]
expect_no_host_calls: [host.run]
`), "expect_host_calls: host.run expected 2 invocations, got 1", "expect_host_calls: host.run never invoked (args=map[cmd:nope])",
		"expect_no_host_calls: host.run was invoked but listed as forbidden")
	// Background calls are not dispatched in the foreground: times: 0.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run: { data: { stdout: "x" } }
turns:
  - intent: { name: bg }
    expect_host_calls: [{ handler: host.run, times: 0 }]
`))
}

func TestEventAssertions(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_events:
      - { kind: machine.transition, from: a, to: b }
      - { kind: world.update, effect: { set: { out: hi } } }
  - intent: { name: back }
  - intent: { name: go }
    expect_events:
      - { kind: harness.dispatched, effect: { namespace: host.run, args: { call: first, cmd: "echo 1" } } }
expect_events_count_atleast: 3
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_events:
      - { kind: world.update, effect: { set: { out: hi } } }
      - { kind: machine.transition, from: a, to: b }
    expect_events_exact: [{ kind: turn.input }]
expect_events_count_atmost: 1
`), "expect_events: event {Kind:machine.transition From:a To:b Effect:map[]} not found in subsequence",
		"expect_events_exact: got", "expect_events_count_atmost: got")
}

func TestSlotTemplatesAndExpectSlots(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
initial_world: { out: "from-world" }
turns:
  - intent: { name: need, slots: { v: "{{ world.out }}" } }
    expect_slots: { v: from-world }
    expect_state: b
`))
}

// The virtual clock: a 10d timeout and a 9m background stub delay finish
// in milliseconds of real time; nothing sleeps.
func TestVirtualClock(t *testing.T) {
	start := time.Now()
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run:
    by_call:
      slow: { data: { stdout: "late" } }
    delay: 9m
turns:
  - intent: { name: wait }
    expect_state: w
    expect_world: { result: "" }
  - advance_clock: 8m
    expect_world: { result: "" }
    expect_jobs: []
  - advance_clock: 1m
    expect_world: { result: late }
    expect_jobs: [{ namespace: host.run, status: done }]
    expect_inbox: { unread: 2, severities: [success, info] }
  - advance_clock: 10d
    expect_state: done
expect_terminal: true
`))
	// Not a timing test: a generous bound that a real 9-minute sleep
	// could never meet.
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("the fixture took %s of real time", d)
	}
}

// A background stub that asks a question waits in awaiting_input until
// the story answers it (templated slot from the world), then completes.
func TestClarificationRoundTrip(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run:
    request_clarification: "Which environment?"
    data: { stdout: "answered" }
turns:
  - intent: { name: bg }
    advance_clock: 10ms
    expect_state: c
    expect_jobs: [{ namespace: host.run, status: awaiting_input }]
    expect_inbox: { unread: 2, needs_attention: 1, severities: [action_required, info] }
  - intent: { name: answer_clarification, slots: { job_id: "{{ world.last_job_id }}", answer: prod } }
    advance_clock: 1s
    expect_state: c
    expect_world: { result: answered }
    expect_jobs: [{ namespace: host.run, status: done }]
expect_no_errors: true
`))
}

// Every mode records a hop that fires at a decision gate
// (machine.gate_decided {decider: default}), as upstream does: the
// existing engine passes this fixture in each mode (docs-review's staged
// fixture is the corpus case for the staged stop itself).
func TestModeStaged(t *testing.T) {
	fixture := func(mode string) string {
		return `test_kind: flow
initial_state: a
mode: "` + mode + `"` + stubs + `
turns:
  - intent: { name: gate }
    expect_events: [{ kind: machine.gate_decided }]
`
	}
	for _, mode := range []string{"staged", "", "one-shot", "oneshot"} {
		wantPass(t, one(t, fixture(mode)))
	}
}

func TestRecordingInput(t *testing.T) {
	rec := `kind: recording
entries:
  - { state: a, input: "Go Now", intent: { name: go } }
`
	rs := runFlow(t, `test_kind: flow
initial_state: a
recording: rec.yaml
turns:
  - input: "  go now "
    expect_state: b
`, map[string]string{"rec.yaml": rec}, Options{})
	wantPass(t, rs[0])
	rs = runFlow(t, `test_kind: flow
initial_state: a
recording: rec.yaml
turns:
  - input: "fly"
`, map[string]string{"rec.yaml": rec}, Options{})
	if rs[0].Fatal == nil || !strings.Contains(rs[0].Fatal.Message, `recording miss for input "fly" in state "a"`) || rs[0].Fatal.Pos.Line != 5 {
		t.Fatalf("a recording miss is a positioned fatal error: %+v", rs[0].Fatal)
	}
	rs = runFlow(t, `test_kind: flow
initial_state: a
recording: rec.yaml
turns:
  - input: "fly"
`, map[string]string{"rec.yaml": rec}, Options{AllowMissingRecording: true})
	if rs[0].Fatal != nil || !rs[0].Flow.Skipped {
		t.Fatalf("--allow-missing-recording skips: %+v", rs[0])
	}
}

func TestFailFastWithinFlow(t *testing.T) {
	rs := runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_state: nowhere
  - intent: { name: back }
expect_terminal: true
`, nil, Options{FailFast: true})
	r := rs[0]
	if r.Turns != 1 || len(r.Flow.Turns) != 2 || r.Flow.Turns[1].TurnIndex != -1 {
		t.Fatalf("fail-fast stops the turns but runs the session checks: %+v", r.Flow.Turns)
	}
}

// Parallel fixtures are isolated: each has its own world, clock and job
// store, so 24 fixtures racing on the same story give the same verdicts as
// one at a time.
func TestIsolationUnderJobs(t *testing.T) {
	fixtures := map[string]string{}
	for i := 0; i < 24; i++ {
		body := `test_kind: flow
initial_state: a
initial_world: { n: ` + itoa(i) + ` }
host_handlers:
  host.run: { data: { stdout: "v` + itoa(i) + `" }, delay: ` + itoa(i+1) + `s }
turns:
  - intent: { name: bg }
  - advance_clock: ` + itoa(i+1) + `s
    expect_world: { result: v` + itoa(i) + `, n: ` + itoa(i) + ` }
    expect_jobs: [{ namespace: host.run, status: done }]
    expect_inbox: { unread: 2 }
`
		fixtures["f"+itoa(100+i)+".yaml"] = body
	}
	dir := filepath.Join(t.TempDir(), "flows")
	storytest.WriteTree(t, dir, fixtures)
	app, _ := filepath.Abs(rigApp)
	files, _, err := DiscoverUnder("", nil, []string{app}, filepath.Join(dir, "*.yaml"), false, nil)
	if err != nil || len(files) != 24 {
		t.Fatalf("%v %d", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 8}).Run(context.Background(), files)
	if len(rs) != 24 {
		t.Fatalf("got %d results", len(rs))
	}
	for i, r := range rs {
		wantPass(t, r)
		if !strings.HasSuffix(r.Name, "f"+itoa(100+i)+".yaml") {
			t.Fatalf("results out of order: %d is %s", i, r.Name)
		}
	}
}

func TestTraceDir(t *testing.T) {
	td := t.TempDir()
	rs := runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
`, nil, Options{TraceDir: td, Generator: "kitsoki test"})
	wantPass(t, rs[0])
	data, err := os.ReadFile(rs[0].Trace)
	if err != nil || !strings.Contains(string(data), `"machine.transition"`) {
		t.Fatalf("trace: %v %.200s", err, data)
	}
}

func TestFilesAndWorldFinal(t *testing.T) {
	rs := runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
expect_world_final: { out: hi }
expect_files:
  - { path: there.txt, content_matches: "^hello" }
  - { path: absent.txt, must_not_exist: true }
`, map[string]string{"there.txt": "hello world"}, Options{})
	wantPass(t, rs[0])
	rs = runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
expect_world_final: { out: nope }
expect_files:
  - { path: there.txt, content_matches: "^bye" }
  - { path: missing.txt }
`, map[string]string{"there.txt": "hello world"}, Options{})
	wantFail(t, rs[0], `expect_world_final["out"]: got "hi", want "nope"`, `expect_files[there.txt]: content does not match "^bye"`, "expect_files[missing.txt]: file does not exist")
}

func TestLegacyPathDropsAgentCalls(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: judge }
    expect_state: j
    expect_world: { n: 0, last_error: "" }
`))
	// On the orchestrator path the stub answers the agent verb.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.agent.decide: { data: { count: 7 } }
turns:
  - intent: { name: judge }
    expect_world: { n: 7 }
`))
}

func TestLegacyPathDropsHostCalls(t *testing.T) {
	// No host_handlers and no orchestrator key: upstream's legacy path,
	// where no handler runs and nothing is bound.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_state: b
    expect_world: { out: "", last_error: "" }
`))
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestWorldOverride(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: locked }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: locked }
    world_override: { flag: true }
    expect_state: b
    expect_world: { flag: true, out: hi }
`))
	// Legacy: expect_world_unchanged compares with the world after the
	// override.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: locked }
    world_override: { flag: true, n: 5 }
    expect_state: b
    expect_world_unchanged: true
  - intent: { name: back }
    world_override: { n: 6 }
    expect_world: { n: 6 }
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: toggle }
    expect_world_unchanged: true
`), `expect_world_unchanged: world["flag"] changed from false to true`)
	// Upstream never evaluates it on the orchestrator path.
	wantPass(t, one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: toggle }
    expect_world_unchanged: true
`))
}

const cassette = `kind: host_cassette
app_id: rig
episodes:
  - id: run_first
    match: { handler: host.run, call: first }
    response: { data: { stdout: "from-cassette" } }
  - id: never
    match: { handler: host.run, call: nope }
    response: { data: {} }
`

func TestHostCassetteAndStrictCoverage(t *testing.T) {
	rs := runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
turns:
  - intent: { name: go }
    expect_world: { out: from-cassette }
`, map[string]string{"c.cassette.yaml": cassette}, Options{})
	wantPass(t, rs[0])
	rs = runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
strict_cassette_coverage: true
turns:
  - intent: { name: go }
    expect_world: { out: from-cassette }
`, map[string]string{"c.cassette.yaml": cassette}, Options{})
	fs := wantFail(t, rs[0], "unexpected remaining episodes: [never]")
	if fs[0].Turn != -1 || fs[0].Pos.Line != 4 {
		t.Errorf("strict coverage is a session failure at its key: %+v", fs[0])
	}
	rs = runFlow(t, `test_kind: flow
initial_state: a
host_cassette: missing.cassette.yaml
turns: []
`, nil, Options{})
	if rs[0].Fatal == nil || !strings.Contains(rs[0].Fatal.Message, "host_cassette:") || rs[0].Fatal.Pos.Line != 3 {
		t.Fatalf("a cassette that does not load is a positioned fatal error: %+v", rs[0].Fatal)
	}
}

// host_bindings recompiles the story with the fixture's bindings (and
// registers every built-in); iface calls then reach the bound handler.
func TestHostBindings(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.gitx: { data: { ok: "via-default" } }
turns:
  - intent: { name: ship }
    expect_world: { out: via-default }
    expect_host_calls: [{ handler: host.gitx.push, times: 1, args: { branch: main } }]
`))
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_bindings: { vcs: host.local }
host_handlers:
  host.local:
    by_op:
      push: { data: { ok: "via-binding" } }
turns:
  - intent: { name: ship }
    expect_world: { out: via-binding }
    expect_host_calls: [{ handler: host.local.push, times: 1 }]
`))
}

// The report of a run has upstream's shape: dense seq from 0, zero ts,
// null events on a clock-only turn, the [session] pseudo-turn last.
func TestReportOfARun(t *testing.T) {
	rs := runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
  - advance_clock: 1s
expect_terminal: true
`, nil, Options{})
	rep := NewReport(rs)
	if rep.Passed != 0 || rep.Failed != 1 || len(rep.Results) != 1 {
		t.Fatalf("counts: %+v", rep)
	}
	turns := rep.Results[0].Turns
	if len(turns) != 3 {
		t.Fatalf("turns: %d", len(turns))
	}
	ev := turns[0].Events
	if len(ev) == 0 || ev[0].Seq != 0 || ev[len(ev)-1].Seq != int64(len(ev)-1) || !ev[0].TS.IsZero() || ev[0].Turn < 1 {
		t.Fatalf("events: %+v", ev)
	}
	if turns[1].Events != nil || turns[1].NewState != "b" || !turns[1].Passed {
		t.Fatalf("clock-only turn: %+v", turns[1])
	}
	if p := turns[2]; p.TurnIndex != -1 || p.Passed || p.NewState != "" || p.View != "" || p.Events != nil || len(p.Failures) != 1 {
		t.Fatalf("pseudo-turn: %+v", p)
	}
	data, _ := MarshalReport(rep)
	if !strings.Contains(string(data), `"Events": null`) || !strings.Contains(string(data), `"TurnIndex": -1`) {
		t.Fatalf("marshalled: %s", data)
	}
}

// Fail-fast across fixtures: nothing starts after the first failure.
func TestFailFastAcrossFixtures(t *testing.T) {
	fixtures := map[string]string{"a.yaml": "test_kind: flow\ninitial_state: a\nturns:\n  - intent: { name: go }\n    expect_state: zz\n"}
	for _, n := range []string{"b", "c", "d"} {
		fixtures[n+".yaml"] = "test_kind: flow\ninitial_state: a\nturns: []\n"
	}
	dir := filepath.Join(t.TempDir(), "flows")
	storytest.WriteTree(t, dir, fixtures)
	app, _ := filepath.Abs(rigApp)
	files, _, _ := DiscoverUnder("", nil, []string{app}, filepath.Join(dir, "*.yaml"), false, nil)
	if rs := NewRunner(Options{Jobs: 1, FailFast: true}).Run(context.Background(), files); len(rs) != 1 || rs[0].Passed() {
		t.Fatalf("fail-fast ran %d fixtures", len(rs))
	}
	if rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files); len(rs) != 4 {
		t.Fatalf("without fail-fast: %d", len(rs))
	}
}

func TestStartStateThatDoesNotExist(t *testing.T) {
	r := one(t, "test_kind: flow\ninitial_state: nowhere\nturns:\n  - intent: { name: go }\n")
	if r.Passed() || r.Fatal != nil {
		t.Fatalf("a start state that does not exist fails the fixture (not fatal): %+v", r)
	}
	// As upstream: the turn is rejected in that state (see TestUnknownInitialState).
	if ts := r.Flow.Turns; len(ts) != 1 || ts[0].TurnIndex != 0 || ts[0].NewState != "nowhere" || len(ts[0].Failures) != 1 {
		t.Fatalf("the failure is the turn's rejection: %+v", r.Flow.Turns)
	}
}

func TestExpectWorldFullAndViews(t *testing.T) {
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_world_full: { out: hi }
`), `expect_world_full: unexpected key "items" in world`, `expect_world_full: unexpected key "obj" in world`)
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_world_full: { out: bye }
`), `expect_world_full["out"]: got "hi", want "bye"`)
	// The rig's states have no views: the view is empty.
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_no_view: true
    expect_view_matches: "^$"
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_view_matches: "(unclosed"
`), `expect_view_matches: invalid regex "(unclosed"`)
}

func TestViewMatches(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
initial_world: { n: 4 }
turns:
  - intent: { name: finish }
    expect_view_matches: "Done with n=4"
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: finish }
    expect_view_matches: "n=9"
    expect_no_view: true
`), "expect_view_matches: view does not match \"n=9\"\nview: \"Done with n=0.\"", "expect_no_view: view is not empty")
}

func TestDisplayInput(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    display_input: "please go"
    expect_events:
      - { kind: turn.input, effect: { input: "please go" } }
`))
}

// by_call keys on the rendered effect id (a templated id arrives rendered).
func TestByCallTemplatedID(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
initial_world: { n: 2 }
host_handlers:
  host.run:
    data: { stdout: "top" }
    by_call:
      "tick-2-": { data: { stdout: "matched" } }
turns:
  - intent: { name: tick }
    expect_world: { result: matched }
`))
}

// A cassette episode's delay on a foreground call never hangs the fixture
// (upstream sleeps on its fake clock forever there).
func TestCassetteDelayDoesNotHang(t *testing.T) {
	done := make(chan []*Result, 1)
	go func() {
		done <- runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
turns:
  - intent: { name: go }
    expect_world: { out: slow }
`, map[string]string{"c.cassette.yaml": `kind: host_cassette
episodes:
  - id: slow
    match: { handler: host.run }
    delay: 1h
    response: { data: { stdout: slow } }
`}, Options{})
	}()
	select {
	case rs := <-done:
		wantPass(t, rs[0])
	case <-time.After(time.Minute): // a hang, not a timing assertion
		t.Fatal("a cassette delay hung the fixture")
	}
}
