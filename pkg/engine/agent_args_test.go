package engine

import (
	"context"
	"testing"
	"time"
)

// The existing engine's agent verbs check their arguments before any agent
// is asked (agent-contract §12; probed with a subprocess plugin on both
// engines, /tmp/agentwalk-probes/p3): a missing one is a domain error named
// by the verb and no call goes out; decide reads its inline prompt and
// schema trimmed; converse sends the question whatever prompt: says.
func TestAgentVerbArgumentsAsUpstream(t *testing.T) {
	cases := []struct {
		name, invoke, with string
		err                string // last_error; "" = the call goes out
		prompt, schema     string // what the agent layer got
	}{
		{"decide no prompt", "host.agent.decide", `{schema: s.json}`,
			"host.agent.decide: prompt: or prompt_path: argument is required", "", ""},
		{"decide blank prompt", "host.agent.decide", `{prompt: " \n ", schema: s.json}`,
			"host.agent.decide: prompt: or prompt_path: argument is required", "", ""},
		{"decide prompt renders blank", "host.agent.decide", `{prompt: "{{ world.empty }}", schema: s.json}`,
			"host.agent.decide: prompt: or prompt_path: argument is required", "", ""},
		{"decide no schema (checked first)", "host.agent.decide", `{args: {}}`,
			"host.agent.decide: schema: argument is required", "", ""},
		{"decide blank schema", "host.agent.decide", `{prompt: p, schema: "  "}`,
			"host.agent.decide: schema: argument is required", "", ""},
		{"decide trimmed", "host.agent.decide", `{prompt: "\n  Decide {{ world.empty }}\n", schema: " s.json "}`,
			"", "Decide", "s.json"},
		{"decide trimmed before pongo2", "host.agent.decide", `{prompt: "  {% if true %} hi {% endif %}  ", schema: s.json}`,
			"", " hi ", "s.json"},
		{"ask blank prompt", "host.agent.ask", `{prompt: "  "}`,
			"host.agent.ask: prompt_path (or prompt) argument is required", "", ""},
		{"ask untrimmed, blank schema is none", "host.agent.ask", `{prompt: "  x  ", schema: "  "}`,
			"", "  x  ", ""},
		{"converse no question", "host.agent.converse", `{prompt: hello}`,
			"host.agent.converse: question argument is required", "", ""},
		{"converse question wins", "host.agent.converse", `{prompt: p, question: " q "}`,
			"", " q ", ""},
		{"extract no schema", "host.agent.extract", `{input: x}`,
			"host.agent.extract: schema argument is required", "", ""},
		{"extract blank input", "host.agent.extract", `{input: "  ", schema: s.json}`,
			"", "  ", "s.json"},
		{"task no persona", "host.agent.task", `{acceptance: {schema: s.json}, context: {prompt: go}}`,
			"host.agent.task: agent: argument is required — declare a named agent in the agents: block", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := compileSource(t, "args.yaml", `app: {id: args}
world:
  empty: {type: string, default: ""}
  out: {type: string, default: ""}
intents:
  go: {}
root: a
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter:
      - invoke: `+tc.invoke+`
        agent: agent.x
        with: `+tc.with+`
        bind: {out: "{{ result.ok }}"}
`, CompileOptions{LateHandlers: true})
			var calls []AgentCall
			agents := AgentCallerFunc(func(_ context.Context, c AgentCall) (*AgentAnswer, error) {
				calls = append(calls, c)
				return answerOf(`{"decision":"go"}`), nil
			})
			s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Options: Options{Agents: agents},
				Clock: NewVirtualClock(time.Unix(0, 0))})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Fire(t.Context(), Input{Intent: "go"}); err != nil {
				t.Fatal(err)
			}
			w := s.World()
			if tc.err != "" {
				if len(calls) != 0 {
					t.Errorf("the agent was asked (%+v); upstream asks none", calls[0])
				}
				if w["last_error"] != tc.err {
					t.Errorf("last_error = %q, want %q", w["last_error"], tc.err)
				}
				return
			}
			if len(calls) != 1 {
				t.Fatalf("%d calls (last_error %v), want 1", len(calls), w["last_error"])
			}
			if calls[0].Prompt != tc.prompt || calls[0].SchemaPath != tc.schema {
				t.Errorf("sent prompt %q schema %q, want %q %q", calls[0].Prompt, calls[0].SchemaPath, tc.prompt, tc.schema)
			}
		})
	}
}
