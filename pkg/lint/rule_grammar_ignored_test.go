package lint

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

const grammarIgnoredStory = `app: {id: gi}
root: a
agent_plugins:
  agent.local: {plugin: builtin.local_llm, model: qwen, grammar: true}
intents: {go: {}}
states:
  a:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.local
        with: {schema: schemas/v.json, prompt: inline text}
        bind: {v: submitted}
    on: {go: [{target: b}]}
  b: {terminal: true}
`

// The grammar-ignored warnings concern a schema that is sent as a grammar:
// none for one outside the subset (the grammar rule's error says it is not
// sent), none for a file that cannot be read (reported once, by the grammar
// rule), one per keyword otherwise.
func TestGrammarIgnoredOnlyForASentGrammar(t *testing.T) {
	cases := []struct {
		name, schema  string // "" writes no schema file
		ignored, read int
	}{
		{"inside the subset", `{"type":"object","properties":{"n":{"type":"number","maximum":1}}}`, 1, 0},
		{"stated additionalProperties, integer bound", `{"type":"object","properties":{"n":{"type":"integer","maximum":1}},"additionalProperties":false}`, 0, 0},
		{"outside the subset", `{"type":"object","properties":{"n":{"type":"number","maximum":1,"not":{}}}}`, 0, 0},
		{"missing file", "", 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", grammarIgnoredStory)
			if tc.schema != "" {
				write(t, dir, "schemas/v.json", tc.schema)
			}
			_, ds := Load(dir, story.Options{})
			ignored, read := 0, 0
			var all []string
			for _, d := range ds {
				all = append(all, d.String())
				if d.Rule == ruleGrammarIgnored.ID {
					ignored++
				}
				if strings.Contains(d.Message, "could not be read") {
					read++
				}
			}
			if ignored != tc.ignored || read != tc.read {
				t.Errorf("want %d grammar-ignored and %d could-not-be-read, got:\n%s", tc.ignored, tc.read, strings.Join(all, "\n"))
			}
		})
	}
}

// grammarCallsStory is a story of n grammar: true decide calls, each
// naming one of schemas.
func grammarCallsStory(n int, schemas ...string) string {
	var b strings.Builder
	b.WriteString("app: {id: gc}\nroot: a\nagent_plugins:\n  agent.local: {plugin: builtin.local_llm, model: qwen, grammar: true}\nintents: {go: {}}\nstates:\n  a:\n    on_enter:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - invoke: host.agent.decide\n        agent: agent.local\n        with: {schema: %s, prompt: inline text}\n        bind: {v: submitted}\n", schemas[i%len(schemas)])
	}
	b.WriteString("    on: {go: [{target: b}]}\n  b: {terminal: true}\n")
	return b.String()
}

// The grammar rules learn each schema once however many calls send it
// (BenchmarkCheckGrammarManyCalls), and still report it at every call:
// three calls of a schema with a bound the grammar ignores, two of one
// outside the subset.
func TestGrammarFindingsAtEveryCall(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", grammarCallsStory(5, "schemas/v.json", "schemas/w.json"))
	write(t, dir, "schemas/v.json", `{"type":"object","properties":{"n":{"type":"number","maximum":1}}}`)
	write(t, dir, "schemas/w.json", `{"type":"object","properties":{"n":{"type":"number","not":{}}}}`)
	_, ds := Load(dir, story.Options{})
	counts := map[string]map[string]bool{}
	for _, d := range ds {
		if d.Rule == ruleGrammar.ID || d.Rule == ruleGrammarIgnored.ID {
			if counts[d.Rule] == nil {
				counts[d.Rule] = map[string]bool{}
			}
			counts[d.Rule][d.Message] = true
		}
	}
	if len(counts[ruleGrammarIgnored.ID]) != 3 || len(counts[ruleGrammar.ID]) != 2 {
		t.Errorf("want 3 grammar-ignored findings and 2 grammar, one per call, got %v", counts)
	}
}
