package flowtest

import (
	"strings"
	"testing"
)

// Rules of flow-format.md that each fixture here pins: a change that
// breaks one of them changes a verdict upstream gives.

// §3.8 and Corrections: expect_host_calls matches the full dispatched
// name after the iface rewrite and prefix fallback; the op the fallback
// adds is not in the args; the prefix and the iface name never match.
func TestHostCallsFullNameAfterPrefixFallback(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.gitx:
    by_op:
      push: { data: { ok: "by-op" } }
turns:
  - intent: { name: ship }
    expect_world: { out: by-op }
    expect_host_calls:
      - { handler: host.gitx.push, times: 1, args: { branch: main, call: push } }
      - { handler: host.gitx.push, times: 0, args: { op: push } }
      - { handler: host.gitx, times: 0 }
      - { handler: iface.vcs.push, times: 0 }
    expect_no_host_calls: [host.gitx, iface.vcs.push]
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.gitx: { data: { ok: x } }
turns:
  - intent: { name: ship }
    expect_host_calls:
      - { handler: host.gitx }
`), "expect_host_calls: host.gitx never invoked")
}

// §3.8: without times at least one match; times counts exactly, also with
// args; a listed arg must equal the dispatched one (numbers by value).
func TestHostCallsTimesAndArgs(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
  - intent: { name: back }
    expect_host_calls: [{ handler: host.run, times: 0 }]
  - intent: { name: go }
    expect_host_calls:
      - { handler: host.run }
      - { handler: host.run, times: 1, args: { cmd: "echo 1" } }
      - { handler: host.run, times: 0, args: { cmd: "echo 2" } }
`))
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_host_calls: [{ handler: host.run, times: 0 }]
`), "expect_host_calls: host.run expected 0 invocations, got 1")
}

// §1.3, §3.8: the legacy path dispatches nothing: expect_host_calls
// never matches (times: 0 does), expect_no_host_calls is vacuous.
func TestLegacyHostCallAssertions(t *testing.T) {
	wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_host_calls: [{ handler: host.run }]
`), "expect_host_calls: host.run never invoked (args=map[])")
	wantPass(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_host_calls: [{ handler: host.run, times: 0 }]
    expect_no_host_calls: [host.run]
expect_no_host_calls: [host.run]
`))
}

// §3.12: expect_no_errors counts rejections only: a host error in the
// world and the orchestrator's clarify outcome (MISSING_SLOTS) do not
// trip it; a clarify turn passes and reports no events.
func TestNoErrorsIgnoresHostErrorsAndClarify(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: go }
    expect_state: b
    expect_world: { last_error: 'host: no handler registered for "host.run"' }
  - intent: { name: back }
  - intent: { name: need }
    expect_state: a
expect_no_errors: true
`)
	wantPass(t, r)
	if c := r.Flow.Turns[2]; c.Events != nil || c.View != "" || c.NewState != "a" {
		t.Errorf("clarify turn: %+v", c)
	}
}

// §3.6: an expect_error turn records its state, no view, and runs no
// other assertion; legacy and orchestrator word their failures apart.
func TestExpectErrorPerPath(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: back }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE, allowed_contains: [go] }
    expect_state: nowhere
    expect_world: { out: nope }
    expect_view_matches: "never"
`)
	wantPass(t, r)
	if tr := r.Flow.Turns[0]; tr.NewState != "a" || tr.View != "" {
		t.Errorf("expect_error turn: %+v", tr)
	}
	wantFail(t, one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: back }
    expect_error: { code: GUARD_FAILED, allowed_contains: [fly] }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
`), `expect_error: code got "INTENT_NOT_ALLOWED_IN_STATE", want "GUARD_FAILED"`,
		`expect_error.allowed_contains: "fly" not in [`,
		`expected error "GUARD_FAILED" but got none (mode=transitioned)`)
	fs := wantFail(t, one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: back }
    expect_error: { code: GUARD_FAILED, allowed_contains: [fly] }
`), `expected error code "GUARD_FAILED" but got "INTENT_NOT_ALLOWED_IN_STATE"`,
		`expect_error.allowed_contains: "fly" not in allowed list [`)
	for _, f := range fs {
		if strings.Contains(f.Message, "(mode=") {
			t.Errorf("legacy wording: %s", f.Message)
		}
	}
}

// §4.6: a cassette episode without replay: any answers once, the next
// matching episode answers the next call; replay: any answers every call;
// a miss is an infra error in the world, not a failure.
func TestCassetteReplayOrder(t *testing.T) {
	cas := `kind: host_cassette
app_id: rig
episodes:
  - id: one
    match: { handler: host.run, call: first }
    response: { data: { stdout: "first-answer" } }
  - id: two
    match: { handler: host.run, call: first }
    response: { data: { stdout: "second-answer" } }
  - id: judge
    match: { handler: host.agent.decide }
    response: { data: { count: 7 } }
    replay: any
`
	rs := runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
strict_cassette_coverage: true
turns:
  - intent: { name: go }
    expect_world: { out: first-answer }
  - intent: { name: back }
  - intent: { name: go }
    expect_world: { out: second-answer }
  - intent: { name: back }
  - intent: { name: go }
    expect_state: b
    expect_world: { out: second-answer }
  - intent: { name: back }
  - intent: { name: judge }
    expect_world: { n: 7 }
  - intent: { name: back }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
`, map[string]string{"c.cassette.yaml": cas}, Options{})
	wantPass(t, rs[0])
	r := rs[0].Flow.Turns[4]
	if !r.Passed {
		t.Fatalf("a cassette miss is not a failure: %+v", r)
	}
}

// §3.5: events of a clock-only turn are null; an expect_events entry
// with from/to matches the transition payload.
func TestClockOnlyTurnHasNoEvents(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a
host_handlers:
  host.run: { data: { stdout: "done" }, delay: 1s }
turns:
  - intent: { name: bg }
    expect_events: [{ kind: machine.transition, from: a, to: c }, { kind: scheduler.submitted }]
  - advance_clock: 1s
    expect_world: { result: done }
    expect_events: [{ kind: world.update }]
`)
	wantFail(t, r, "expect_events: event")
	if r.Flow.Turns[0].Passed != true || r.Flow.Turns[1].Events != nil {
		t.Errorf("turns: %+v %+v", r.Flow.Turns[0], r.Flow.Turns[1])
	}
}

// §3.5: a missing expect_events entry is printed as upstream's %+v, and
// the cursor has passed every event, so later entries fail too.
func TestExpectEventsMessageAndCursor(t *testing.T) {
	wantFail(t, one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
    expect_events:
      - { kind: world.update, effect: { set: { out: nope, n: [1, 2.5] } } }
      - { kind: turn.end }
`), "expect_events: event {Kind:world.update From: To: Effect:map[set:map[n:[1 2.5] out:nope]]} not found in subsequence",
		"expect_events: event {Kind:turn.end From: To: Effect:map[]} not found in subsequence")
}

// §2.1: the initial state's on_enter never runs, and its timeout is armed
// at the seeded start (orchestrator path).
func TestInitialStateSeeding(t *testing.T) {
	wantPass(t, one(t, `test_kind: flow
initial_state: b`+stubs+`
turns:
  - intent: { name: back }
    expect_state: a
    expect_world: { out: "" }
    expect_host_calls: [{ handler: host.run, times: 0 }]
`))
	wantPass(t, one(t, `test_kind: flow
initial_state: w
use_orchestrator: true
turns:
  - advance_clock: 10d
    expect_state: done
    expect_host_calls: [{ handler: host.run, times: 0 }]
expect_terminal: true
`))
}

// §2.1, §2.2: an initial_state the story does not have is accepted: every
// intent is rejected there (so expect_error passes and a fixture with no
// turns passes), clock-only turns pass, the session checks see it.
func TestUnknownInitialState(t *testing.T) {
	for _, orch := range []string{"true", "false"} {
		wantPass(t, one(t, `test_kind: flow
initial_state: nowhere
use_orchestrator: `+orch+`
turns: []
`))
		r := one(t, `test_kind: flow
initial_state: nowhere
use_orchestrator: `+orch+`
initial_world: { n: 4 }
turns:
  - intent: { name: go }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
  - intent: { name: go }
    expect_state: nowhere
    expect_world: { n: 4 }
expect_terminal: true
expect_no_errors: true
`)
		want := `unexpected rejection: code=INTENT_NOT_ALLOWED_IN_STATE hint=`
		if orch == "false" {
			want = `unexpected validation error: INTENT_NOT_ALLOWED_IN_STATE: intent "go" is not allowed in state "nowhere"`
		}
		wantFail(t, r, want, `expect_terminal: state "nowhere" is not terminal`, "expect_no_errors: there were validation errors")
		if ts := r.Flow.Turns; len(ts) != 3 || !ts[0].Passed || ts[1].Passed || ts[1].NewState != "nowhere" || len(ts[1].Failures) != 1 || ts[2].TurnIndex != -1 {
			t.Errorf("use_orchestrator %s: turns %+v", orch, ts)
		}
	}
}

// §3.6 ⚠ (scratch probe7): on the legacy path an expect_error turn whose
// intent was accepted is thrown away: it reports the pre-turn state and
// the next turn starts from the pre-turn state and world. The
// orchestrator path keeps the turn.
func TestLegacyExpectErrorDiscardsAcceptedTurn(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: toggle }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: back }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
  - intent: { name: locked }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: go }
    expect_state: b
    expect_world: { flag: false }
`)
	wantFail(t, r, `expected error "GUARD_FAILED" but got none`)
	var got []string
	for _, tr := range r.Flow.Turns {
		got = append(got, tr.NewState)
		if tr.TurnIndex >= 2 && !tr.Passed {
			t.Errorf("turn %d: %v", tr.TurnIndex, tr.Failures)
		}
	}
	if strings.Join(got, " ") != "a a a a b" {
		t.Errorf("states: %v", got)
	}
	r = one(t, `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: toggle }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: locked }
    expect_state: b
`)
	wantFail(t, r, `expected error "GUARD_FAILED" but got none (mode=transitioned)`)
	if !r.Flow.Turns[1].Passed {
		t.Errorf("the orchestrator keeps the accepted turn: %v", r.Flow.Turns[1].Failures)
	}
}

// The session checks read the session the turns ended in, also after a
// legacy expect_error turn was discarded.
func TestSessionChecksAfterDiscardedTurn(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: toggle }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: finish }
    expect_state: done
expect_terminal: true
expect_world_final: { flag: false }
`)
	wantFail(t, r, `expected error "GUARD_FAILED" but got none`)
	if last := r.Flow.Turns[len(r.Flow.Turns)-1]; last.TurnIndex == -1 {
		t.Errorf("session checks failed after the discarded turn: %v", last.Failures)
	}
}

// An emit hop is reported as upstream writes it: its machine.transition
// (from the gate to the target), with no machine.emit_intent event.
func TestEmitHopEvents(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: gate }
    expect_state: done
    expect_events:
      - { kind: machine.transition, from: a, to: g }
      - { kind: machine.transition, from: g, to: done }
`)
	wantPass(t, r)
	for _, ev := range NewReport([]*Result{r}).Results[0].Turns[0].Events {
		if ev.Kind == "machine.emit_intent" {
			t.Fatalf("machine.emit_intent reported: upstream never writes it")
		}
	}
}
