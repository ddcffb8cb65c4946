package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// The hosts: allow-list is the folded story's: the top-level story's
// hosts with every inherited child's. When it is non-empty every invoke
// of the tree must be in it — a child's with no hosts: of its own too,
// and the top-level story's when only a child declares hosts. When it is
// empty nothing is checked. Verdicts of the existing engine's validate
// (probes guidewalk p9expr, p9hA, p9hB): it refuses the first three.
func TestHostsFoldedAcrossImports(t *testing.T) {
	child := func(hosts, inv string) string {
		return "app: {id: k}\n" + hosts + "root: s\nintents: {run: {}}\nstates:\n  s:\n    on:\n      run: [{target: ., effects: [{invoke: " + inv + "}]}]\n"
	}
	parent := func(hosts, inv string) string {
		eff := ""
		if inv != "" {
			eff = ", effects: [{invoke: " + inv + "}]"
		}
		return "app: {id: p}\n" + hosts + "imports:\n  kid: {source: ./kid}\nroot: a\nintents: {enter: {}}\nstates:\n  a:\n    on:\n      enter: [{target: kid" + eff + "}]\n"
	}
	for _, tc := range []struct {
		name, parent, child, want string
	}{
		{"child without hosts under a parent list", parent("hosts: [host.inbox.add]\n", ""), child("", "host.run"),
			`state "kid.s" intent "kid__run": effect invoke "host.run" is not declared in app hosts`},
		{"child list, child invoke outside it", parent("", ""), child("hosts: [host.inbox.add]\n", "host.run"),
			`state "kid.s" intent "kid__run": effect invoke "host.run" is not declared in app hosts`},
		{"parent without hosts, child list", parent("", "host.run"), child("hosts: [host.inbox.add]\n", "host.inbox.add"),
			`state "a" intent "enter": effect invoke "host.run" is not declared in app hosts`},
		{"no list anywhere", parent("", "host.run"), child("", "host.run"), ""},
		{"the parent lists the child's host", parent("hosts: [host.run]\n", "host.run"), child("", "host.run"), ""},
		{"a child list covers the parent", parent("", "host.run"), child("hosts: [host.run]\n", "host.run"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", tc.parent)
			write(t, dir, "kid/app.yaml", tc.child)
			_, ds := Load(dir, story.Options{})
			var hosts []string
			for _, d := range ds {
				if d.Rule == ruleHosts.ID {
					hosts = append(hosts, d.Message)
				}
			}
			got := strings.Join(hosts, "\n")
			if tc.want == "" && got != "" || tc.want != "" && (len(hosts) != 1 || !strings.Contains(got, tc.want)) {
				t.Errorf("hosts findings:\n%s\nwant: %q", got, tc.want)
			}
		})
	}
}
