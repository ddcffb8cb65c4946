package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// On the default claude path an agent verb's result has fixed keys
// (conformances ask-default-result, decide-default-validator): agent-args
// names a bind of any other key, and ask's submitted without a schema:;
// a plugin alias, a redeclared agent.claude and a template bind are left
// alone.
func TestDefaultPathBinds(t *testing.T) {
	const app = "app: {id: p}\nhosts: [host.agent.ask, host.agent.decide, host.agent.converse]\nPLUGINS" +
		"world: {x: {type: any}}\nintents: {go: {}}\nroot: s\nstates:\n  s:\n    on: {go: [{target: s, effects: [{invoke: VERB, AGENT with: {WITH}, bind: {x: PATH}}]}]}\n"
	const sub = "agent_plugins: {agent.sub: {plugin: subprocess, command: ./p}}\n"
	const redeclared = "agent_plugins: {agent.claude: {plugin: subprocess, command: ./p}}\n"
	for _, tc := range []struct {
		verb, agent, plugins, with, path, want string
	}{
		{"host.agent.ask", "", "", "prompt: hi", "submitted", "reads submitted, which an ask without schema:"},
		{"host.agent.ask", "", "", "prompt: hi, schema: s.json", "submitted.a", ""},
		{"host.agent.ask", "", "", "prompt: hi", "stdout", ""},
		{"host.agent.ask", "agent: agent.claude,", "", "prompt: hi", "meta.cost_usd", "reads meta, which host.agent.ask never returns"},
		{"host.agent.ask", "", "", "prompt: hi", "submission", "reads submission"},
		{"host.agent.ask", "", "", "prompt: hi", `"{{ result.submitted }}"`, ""},
		{"host.agent.ask", "agent: agent.sub,", sub, "prompt: hi", "submitted", ""},
		{"host.agent.ask", "", redeclared, "prompt: hi", "submitted", ""},
		{"host.agent.decide", "", "", "prompt: hi, schema: s.json", "submitted.decision", ""},
		{"host.agent.decide", "", "", "prompt: hi, schema: s.json", "rationale", ""},
		{"host.agent.decide", "", "", "prompt: hi, schema: s.json", "stdout", "reads stdout, which host.agent.decide never returns"},
		{"host.agent.converse", "", "", "question: hi", "answer", ""},
		{"host.agent.converse", "", "", "question: hi", "ok", "reads ok, which host.agent.converse never returns"},
	} {
		dir := t.TempDir()
		r := strings.NewReplacer("VERB", tc.verb, "AGENT", tc.agent, "PLUGINS", tc.plugins, "WITH", tc.with, "PATH", tc.path)
		write(t, dir, "app.yaml", r.Replace(app))
		write(t, dir, "s.json", `{"type":"object"}`)
		write(t, dir, "p", "#!/bin/sh\n")
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleAgentArgs.ID && strings.Contains(d.Message, "default claude path") {
				got = append(got, d.Message)
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s %s bind %s: warned %q", tc.verb, tc.agent, tc.path, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s %s bind %s: got %q, want one warning holding %q (all: %v)", tc.verb, tc.agent, tc.path, got, tc.want, ds)
		}
	}
}
