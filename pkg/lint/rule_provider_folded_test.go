package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Upstream's fold lifts a child's agents (kid__rev) but not its
// providers:, so a provider reference anywhere in the tree resolves
// against the top story's providers: a child's agent or with.provider
// naming the child's own provider is refused at load (test flows: load
// app "app.yaml": provider reference "fast" at agents.kid__rev.provider is
// undefined), one the top story declares loads, and a middle story's
// providers do not count. Verdicts and messages recorded from the
// existing engine's validate and test flows (probes hunt118 prov..prov5).
func TestProvidersResolveAtTheTop(t *testing.T) {
	kidProv := "providers:\n  fast: {effort: high}\n"
	parent := func(extra string) string {
		return "app: {id: p}\nintents: {go: {}}\nimports:\n  kid: {source: ./kid, exits: {done: {to: s}}}\nroot: s\nstates:\n  s:\n    on:\n      go: [{target: kid}]\n" + extra
	}
	kid := func(onEnter, agents string) string {
		return "app: {id: k}\nintents: {go2: {}}\nexits: {done: {}}\nroot: a\nstates:\n  a:\n" + onEnter + "    on:\n      go2: [{target: \"@exit:done\"}]\n" + agents + kidProv
	}
	ask := "    on_enter:\n      - {invoke: host.agent.ask, with: {agent: rev, prompt: \"{{ world.q }}\", provider: fast}, bind: {n: answer}}\n"
	for _, tc := range []struct {
		name, parent, kid, want string
	}{
		{"the child's own provider", parent(""), kid("", "agents:\n  rev: {system_prompt: hi, provider: fast}\n"),
			`provider reference "fast" at agents.kid__rev.provider is undefined (known providers: (none declared))`},
		{"the top story's providers listed", parent("providers:\n  slow: {effort: high}\n"), kid("", "agents:\n  rev: {system_prompt: hi, provider: fast}\n"),
			`provider reference "fast" at agents.kid__rev.provider is undefined (known providers: slow)`},
		{"an effect's with.provider", parent(""), kid(ask, "agents:\n  rev: {system_prompt: hi}\n"),
			`provider reference "fast" at state "kid.a" on_enter[0] with.provider is undefined (known providers: (none declared))`},
		{"declared at the top", parent(kidProv), kid(ask, "agents:\n  rev: {system_prompt: hi, provider: fast}\n"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", tc.parent)
			write(t, dir, "kid/app.yaml", tc.kid)
			_, ds := Load(dir, story.Options{})
			var got []string
			for _, d := range ds {
				if d.Rule == story.RuleProvider.ID && d.Severity == diag.Error {
					got = append(got, d.Message)
				}
			}
			if tc.want == "" && (len(got) != 0 || unrunnable(ds)) || tc.want != "" && (len(got) != 1 || got[0] != tc.want || !unrunnable(ds)) {
				t.Errorf("provider errors %q, want %q (unrunnable: %v)", got, tc.want, unrunnable(ds))
			}
		})
	}
	// two levels: the middle story's providers do not count either
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: p}\nintents: {go: {}}\nimports:\n  mid: {source: ./mid}\nroot: s\nstates:\n  s:\n    on:\n      go: [{target: mid}]\n")
	write(t, dir, "mid/app.yaml", "app: {id: m}\nintents: {m: {}}\n"+kidProv+"imports:\n  kid: {source: ./kid}\nroot: s\nstates:\n  s:\n    on:\n      m: [{target: kid}]\n")
	write(t, dir, "mid/kid/app.yaml", "app: {id: k}\nagents:\n  rev: {system_prompt: hi, provider: fast}\nroot: a\nstates:\n  a: {}\n")
	_, ds := Load(dir, story.Options{})
	if !strings.Contains(render(ds), `provider reference "fast" at agents.mid__kid__rev.provider is undefined (known providers: (none declared))`) {
		t.Errorf("two levels: %s", render(ds))
	}
}
