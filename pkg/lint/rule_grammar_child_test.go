package lint

import (
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A child's builtin.local_llm alias with grammar: true is not checked as
// an error: upstream's fold drops a child's agent_plugins:, and loads a
// child whose decide schema is missing (gen write -kind lint -wrap 1 -seed
// 7118, grammar-schema-missing); the same story on its own is refused.
// Ours warns in the child.
func TestGrammarInImportedChildWarns(t *testing.T) {
	dir := t.TempDir()
	child := "app: {id: k}\nagent_plugins:\n  agent.llm: {plugin: builtin.local_llm, model: m, grammar: true}\nexits: {out: {}}\nroot: a\nstates:\n  a:\n    on_enter:\n      - {invoke: host.agent.decide, agent: agent.llm, with: {prompt: p.md, schema: schemas/none.json}}\n"
	write(t, dir, "app.yaml", "app: {id: p}\nimports:\n  kid: {source: ./kid, exits: {out: {to: s}}}\nroot: s\nintents: {go: {}}\nstates:\n  s:\n    on:\n      go: [{target: kid}]\n")
	write(t, dir, "kid/app.yaml", child)
	write(t, dir, "kid/p.md", "Decide.\n")
	for _, tc := range []struct {
		dir  string
		want diag.Severity
	}{{dir, diag.Warning}, {filepath.Join(dir, "kid"), diag.Error}} {
		_, ds := Load(tc.dir, story.Options{})
		found := false
		for _, d := range ds {
			if d.Rule == ruleGrammar.ID {
				found = true
				if d.Severity != tc.want {
					t.Errorf("%s: %s, want severity %v", tc.dir, d, tc.want)
				}
			} else if d.Severity == diag.Error {
				t.Errorf("%s: unexpected error %s", tc.dir, d)
			}
		}
		if !found {
			t.Errorf("%s: no grammar finding:\n%s", tc.dir, render(ds))
		}
	}
}
