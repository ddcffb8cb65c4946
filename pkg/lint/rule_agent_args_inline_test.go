package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// eval5: both engines render an agent call's with: strings at walk time,
// where args is empty (conformance values-agent-with), so an inline
// prompt's {{ args.x }} reaches the agent blank ("Say {{ args.x }}." is
// sent as "Say ."). agent-args names it; a {% %} block (left for the
// prompt renderer), a world read and a prompt_path are left alone.
func TestInlinePromptArgsRendersEmpty(t *testing.T) {
	const app = "app: {id: p}\nhosts: [host.agent.decide, host.agent.converse]\nworld: {x: {type: string, default: a}}\n" +
		"intents: {go: {}}\nroot: s\nstates:\n  s:\n    on: {go: [{target: s, effects: [{invoke: VERB, with: {KEY: PROMPT, schema: s.json, args: {x: \"{{ world.x }}\"}}}]}]}\n"
	const want = "prints {{ args.… }}, which renders empty"
	for _, tc := range []struct {
		verb, key, prompt string
		warns             bool
	}{
		{"host.agent.decide", "prompt", `"Say {{ args.x }}."`, true},
		{"host.agent.decide", "prompt", `"Say {{- args.x }}."`, true},
		{"host.agent.converse", "question", `"Why {{ args.x }}?"`, true},
		{"host.agent.decide", "prompt", `"Say {{ world.x }}."`, false},
		{"host.agent.decide", "prompt", `"Say{% if args.x %} it{% endif %}."`, false},
		{"host.agent.decide", "prompt", `"Say {{ myargs.x }}."`, false},
		{"host.agent.decide", "prompt_path", `p.md`, false},
	} {
		dir := t.TempDir()
		r := strings.NewReplacer("VERB", tc.verb, "KEY", tc.key, "PROMPT", tc.prompt)
		write(t, dir, "app.yaml", r.Replace(app))
		write(t, dir, "s.json", `{"type":"object"}`)
		write(t, dir, "p.md", "Say {{ args.x }}.")
		_, ds := Load(dir, story.Options{})
		n := 0
		for _, d := range ds {
			if d.Rule == ruleAgentArgs.ID && strings.Contains(d.Message, want) {
				n++
			}
		}
		if (n == 1) != tc.warns || n > 1 {
			t.Errorf("%s %s: %s: %d warnings, want warned: %v (all: %v)", tc.verb, tc.key, tc.prompt, n, tc.warns, ds)
		}
	}
}

// host.agent.task's context.prompt renders with the rest of with: before
// the call (conformance values-agent-with: "T {{ world.k }} {{ args.x }}"
// is dispatched as "T KK "), so its {{ args.x }} is named too.
func TestTaskContextPromptArgsRendersEmpty(t *testing.T) {
	const app = "app: {id: p}\nhosts: [host.agent.task]\nagents: {w: {system_prompt: x}}\nworld: {x: {type: string, default: a}}\n" +
		"intents: {go: {}}\nroot: s\nstates:\n  s:\n    on: {go: [{target: s, effects: [{invoke: host.agent.task, with: {agent: w, context: {prompt: PROMPT, args: {x: \"{{ world.x }}\"}}, acceptance: {schema: s.json}}}]}]}\n"
	for _, tc := range []struct {
		prompt string
		warns  bool
	}{
		{`"T {{ args.x }}"`, true},
		{`"T {{ world.x }}"`, false},
		{`"T{% if args.x %} it{% endif %}"`, false},
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", strings.ReplaceAll(app, "PROMPT", tc.prompt))
		write(t, dir, "s.json", `{"type":"object"}`)
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleAgentArgs.ID {
				got = append(got, d.String())
			}
		}
		want := 0
		if tc.warns {
			want = 1
		}
		if len(got) != want || (tc.warns && !strings.Contains(got[0], "with.context.prompt prints {{ args.… }}")) {
			t.Errorf("%s: agent-args %v, want %d naming with.context.prompt (all: %v)", tc.prompt, got, want, ds)
		}
	}
}

// The existing engine hands the top-level decider's prompt: to
// host.agent.decide as a prompt file with no args (testdata/decider-prompt),
// so {{ args.state }} in it, inline or in the file, is named.
func TestDeciderPromptArgs(t *testing.T) {
	const app = "app: {id: p}\nworld: {city: {type: string, default: Oslo}}\nroot: start\nintents: {go: {}}\n" +
		"states:\n  start:\n    on: {go: [{target: end}]}\n  end: {terminal: true}\nagents: {a: {system_prompt: x}}\n" +
		"decider: {agent: a, schema: s.json, prompt: PROMPT}\n"
	for _, tc := range []struct {
		prompt, file string
		want         string
	}{
		{`"in {{ args.state }}"`, "", "fails to read there"},
		{`"in {{ world.city }}"`, "", ""},
		{`d.md`, "in {{ args.state }}", "renders the decider's prompt file with no args"},
		{`d.md`, "in {{ world.city }}", ""},
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", strings.ReplaceAll(app, "PROMPT", tc.prompt))
		write(t, dir, "s.json", `{"type":"object"}`)
		write(t, dir, "d.md", tc.file)
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleAgentArgs.ID {
				got = append(got, d.String())
			}
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.Contains(got[0], "app.yaml:10:")) {
			t.Errorf("%s %q: agent-args %v, want %q", tc.prompt, tc.file, got, tc.want)
		}
	}
}

// conformance agent-prompt-sources: ask's inline prompt: and converse's
// question: reach the agent as written ({% %} unrendered), task reads
// context.prompt alone, and decide refuses prompt: with prompt_path:;
// agent-args names each, and leaves the forms both engines send as meant.
func TestAgentPromptSourcesWarn(t *testing.T) {
	const app = "app: {id: p}\nhosts: [host.agent.ask, host.agent.converse, host.agent.task, host.agent.decide, host.agent.extract]\nagents: {w: {system_prompt: x}}\n" +
		"intents: {go: {}}\nroot: s\nstates:\n  s:\n    on: {go: [{target: s, effects: [{invoke: VERB, with: WITH}]}]}\n"
	for _, tc := range []struct {
		verb, with, want string
	}{
		{"host.agent.ask", `{prompt: "A {% if true %}x{% endif %}"}`, "with.prompt holds a {% %} tag"},
		{"host.agent.converse", `{agent: w, question: "Q {% if %}"}`, "with.question holds a {% %} tag"},
		{"host.agent.task", `{agent: w, prompt: hi, acceptance: {schema: s.json}}`, "never reads with.prompt (hi)"},
		{"host.agent.task", `{agent: w, prompt_path: p.md, acceptance: {schema: s.json}}`, "never reads with.prompt_path (p.md)"},
		{"host.agent.task", `{agent: w, context: {prompt_path: p.md}, acceptance: {schema: s.json}}`, "never reads with.context.prompt_path (p.md)"},
		{"host.agent.decide", `{prompt: hi, prompt_path: p.md, schema: s.json}`, "are mutually exclusive"},
		{"host.agent.ask", `{prompt: "A {% if %}", prompt_path: p.md}`, ""},
		{"host.agent.ask", `{prompt: "A {{ world.x }}"}`, ""},
		{"host.agent.ask", `{prompt_path: p.md}`, ""},
		{"host.agent.task", `{agent: w, context: {prompt: "T {% if true %}x{% endif %}"}, acceptance: {schema: s.json}}`, ""},
		{"host.agent.decide", `{prompt: "D {% if true %}x{% endif %}", schema: s.json}`, ""},
		// conformance extract-no-resolver
		{"host.agent.extract", `{input: hi, prompt: PR, agent: w, schema: s.json}`, `with.prompt ("PR") makes upstream's extract match no resolver`},
		{"host.agent.extract", `{input: hi, schema: s.json}`, "names no with.agent persona"},
		{"host.agent.extract", `{input: hi, prompt_path: p.md, schema: s.json}`, "names no with.agent persona"},
		{"host.agent.extract", `{input: hi, agent: w, schema: s.json}`, ""},
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", strings.NewReplacer("VERB", tc.verb, "WITH", tc.with).Replace(app))
		write(t, dir, "s.json", `{"type":"object"}`)
		write(t, dir, "p.md", "P")
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleAgentArgs.ID {
				got = append(got, d.Message)
			}
		}
		if tc.want == "" {
			if len(got) != 0 {
				t.Errorf("%s %s: agent-args %v, want none", tc.verb, tc.with, got)
			}
			continue
		}
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s %s: agent-args %v, want one saying %q", tc.verb, tc.with, got, tc.want)
		}
	}
}
