package flowtest

import (
	"strings"
	"testing"
)

// jobsOutApp is imports_smoke's shape: only proc starts a background
// job, whose on_complete moves the machine to done.
const jobsOutApp = `app: {id: jobs}
hosts: [host.run]
root: lobby
intents: {go: {}, work: {}, back: {}, x: {}}
states:
  lobby:
    on:
      go: [{target: hall}]
      work: [{target: proc}]
  hall:
    on:
      back: [{target: lobby}]
  proc:
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        background: true
        on_complete: [{target: done}]
    on:
      back: [{target: lobby}]
  done:
    on:
      back: [{target: lobby}]
      x: [{target: done}]
`

// TestLintJobsOut: a moving background job leaves the fixture's rest
// unknown only once a turn may have started one; before that the turns
// are judged as in a story without jobs.
func TestLintJobsOut(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {data: {}}}\ninitial_state: lobby\n"
	cases := []struct{ name, fx, want string }{
		{"no job started", "turns:\n  - intent: {name: go}\n  - intent: {name: x}\n",
			`turns[1]: intent "x" is not taken at "hall"`},
		{"no job after two plain moves", "turns:\n  - intent: {name: go}\n  - intent: {name: back}\n  - intent: {name: x}\n",
			`turns[2]: intent "x" is not taken at "lobby"`},
		{"after the job's state", "turns:\n  - intent: {name: work}\n  - intent: {name: x}\n", ""},
		{"after the job's state and back", "turns:\n  - intent: {name: work}\n  - intent: {name: back}\n  - intent: {name: x}\n", ""},
		{"after a turn not followed", "turns:\n  - intent: {name: work}\n    expect_error: {code: GUARD_FAILED}\n  - intent: {name: go}\n  - intent: {name: x}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": jobsOutApp}, head+c.fx), c.want)
		})
	}
}

// TestLintClockIdle: a clock-only turn where no timeout: can fire and no
// job is out moves nothing (conformance clock-idle); one that may land a
// job is not judged as idle.
func TestLintClockIdle(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {data: {}}}\ninitial_state: lobby\n"
	cases := []struct{ name, fx, want string }{
		{"idle, then a move", "turns:\n  - advance_clock: 1s\n  - intent: {name: go}\n  - intent: {name: x}\n", `turns[2]: intent "x" is not taken at "hall"`},
		{"idle, where it rests", "turns:\n  - advance_clock: 1s\n  - advance_clock: 1h\n  - intent: {name: x}\n", `turns[2]: intent "x" is not taken at "lobby", where turns[1] only advances the clock`},
		// the job lands at 30s, during the advance, and moves to done
		{"a job out lands", "turns:\n  - intent: {name: work}\n  - advance_clock: 1m\n  - intent: {name: x}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": jobsOutApp}, strings.Replace(head, "data: {}", "delay: 30s, data: {}", 1)+c.fx), c.want)
		})
	}
}
