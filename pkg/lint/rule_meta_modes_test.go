package lint

import (
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Upstream checks meta_modes: once, on the folded story: a child's mode
// under its folded key (`kid__g.t`) with its group: kept, so a grouped
// mode in an imported child never matches its key's prefix and the story
// is refused (test flows: load app "app.yaml": meta_mode "kid__g.t": group
// "g" does not match key prefix "kid__g"); an undotted child mode whose
// trigger is the importer's intent collides; a dotted one without group:
// forms the group "kid__g"; the same child under two aliases, or a
// parent's and a child's mode on one trigger, load. The modes upstream
// injects (story.edit, story.ask, story.bug) claim their triggers too: a
// declared mode of the group story on trigger edit is refused, and a
// child's own story.edit, folded to kid__story.edit, does not replace the
// injected one. Every verdict and
// message was recorded from the existing engine's validate and test flows
// (probes hunt118 mm_*).
func TestMetaModesCheckedFolded(t *testing.T) {
	agent := "agents:\n  ag: {system_prompt: hi}\n"
	kid := func(modes string) string {
		return "app: {id: k}\nintents: {go2: {}}\nexits: {done: {}}\n" + agent + "meta_modes:\n" + modes + "root: a\nstates:\n  a:\n    on:\n      go2: [{target: \"@exit:done\"}]\n"
	}
	parent := func(imports, extra string) string {
		return "app: {id: p}\nintents: {go: {}}\n" + extra + "imports:\n" + imports + "root: s\nstates:\n  s:\n    on:\n      go: [{target: kid}]\n"
	}
	one := "  kid: {source: ./kid, exits: {done: {to: s}}}\n"
	for _, tc := range []struct {
		name, parent, kid string
		want              []string // the errors, in order; none: it loads
	}{
		{"grouped", parent(one, ""), kid("  g.t: {group: g, trigger: t, agent: ag, default: true}\n"),
			[]string{`meta_mode "kid__g.t": group "g" does not match key prefix "kid__g" (key must be "g".<trigger>)`}},
		{"grouped without agent", parent(one, ""), kid("  g.t: {group: g, trigger: t}\n"),
			[]string{`meta_mode "kid__g.t": agent is required`, `meta_mode "kid__g.t": group "g" does not match key prefix "kid__g"`}},
		{"the importer's intent", parent(one, ""), kid("  t: {trigger: go, agent: ag}\n"),
			[]string{`meta_mode "kid__t": trigger "go" collides with a declared intent of the same name`}},
		{"dotted, no group", parent(one, ""), kid("  g.t: {trigger: t, agent: ag}\n  g.u: {trigger: u, agent: ag}\n"),
			[]string{`meta_mode group "kid__g": no default verb declared (one of 2 modes must set default: true)`}},
		{"an injected mode's trigger", parent(one, agent+"meta_modes:\n  x: {group: story, trigger: edit, agent: ag}\n"), kid("  t: {trigger: t, agent: ag}\n"),
			[]string{`meta_mode "x": trigger "edit" already claimed by meta_mode "story.edit" in group "story"`}},
		{"a child's story.edit", parent(one, ""), kid("  story.edit: {group: story, trigger: edit, agent: ag, default: true}\n"),
			[]string{`meta_mode "kid__story.edit": group "story" does not match key prefix "kid__story"`,
				`meta_mode "story.edit": trigger "edit" already claimed by meta_mode "kid__story.edit" in group "story"`,
				`meta_mode group "story": 2 modes flagged default: true (kid__story.edit, story.edit) — exactly one allowed`}},
		{"two aliases", parent(one+"  k2: {source: ./kid, exits: {done: {to: s}}}\n", ""), kid("  t: {trigger: t, agent: ag}\n"), nil},
		{"parent and child on one trigger", parent(one, agent+"meta_modes:\n  x: {trigger: t, agent: ag}\n"), kid("  t: {trigger: t, agent: ag}\n"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", tc.parent)
			write(t, dir, "kid/app.yaml", tc.kid)
			_, ds := Load(dir, story.Options{})
			errs := ruleMessages(ds, story.RuleMetaMode.ID) // every finding is an error
			if unrunnable(ds) != (tc.want != nil) || len(errs) != len(tc.want) {
				t.Fatalf("errors:\n%s\nwant %d: %q", strings.Join(errs, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(errs[i], w) {
					t.Errorf("error %d: %q\nwant %q", i, errs[i], w)
				}
			}
			if tc.want != nil && !strings.HasPrefix(tc.name, "an injected") && !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
				return d.Severity == diag.Error && strings.HasSuffix(d.File, "kid/app.yaml")
			}) {
				t.Errorf("no error at the child's line: %v", ds)
			}
		})
	}
}
