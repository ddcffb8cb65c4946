package flowtest

import "testing"

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
		{"after a turn not followed", "turns:\n  - advance_clock: 1s\n  - intent: {name: go}\n  - intent: {name: x}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": jobsOutApp}, head+c.fx), c.want)
		})
	}
}
