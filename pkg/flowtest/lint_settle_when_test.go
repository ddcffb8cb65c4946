package flowtest

import "testing"

// settleWhenApp's room holds, under a when: false on the default world,
// an agent call with a selection: and a background job whose
// on_complete moves the machine.
const settleWhenApp = `app: {id: when}
hosts: [host.run, host.agent.decide]
agents:
  judge: {system_prompt: j, model: m, tools: []}
world:
  mode: {type: string, default: human}
root: lobby
intents: {go: {}, y: {}, back: {}}
states:
  lobby:
    on:
      go: [{target: room}]
      y: [{target: lobby}]
  room:
    on_enter:
      - when: "world.mode == 'llm'"
        invoke: host.agent.decide
        id: judge
        with: {agent: judge, prompt: p, schema: {type: object}}
        selection: {profile: quick}
      - when: "world.mode == 'llm'"
        invoke: host.run
        background: true
        with: {cmd: "true"}
        on_complete: [{target: lobby}]
    on:
      back: [{target: lobby}]
`

// TestLintSettleWhenFirst: an entry whose when: is certainly false is
// skipped whatever it holds (conformance settle-when-first); one whose
// when: holds still gives the walk up.
func TestLintSettleWhenFirst(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {data: {}}, host.agent.decide: {data: {submitted: z}}}\ninitial_state: lobby\n"
	cases := []struct{ name, fx, want string }{
		{"when false", "turns:\n  - intent: {name: go}\n  - intent: {name: y}\n", `turns[1]: intent "y" is not taken at "room", where turns[0] "go", fired at "lobby"`},
		{"taken there", "turns:\n  - intent: {name: go}\n  - intent: {name: back}\n", ""},
		{"when true", "initial_world: {mode: llm}\nturns:\n  - intent: {name: go}\n  - intent: {name: y}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": settleWhenApp}, head+c.fx), c.want)
		})
	}
}
