package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A proposals: block of an imported child, at any depth, is neither folded
// nor checked by the existing engine: its validate accepts the story where
// the same block at the top level is refused (probes at depth 0 to 3 for a
// background execute without invoke, depth 0 to 2 for a background effect
// in its on_complete). Here the findings stay, as warnings.
func TestImportedProposalsWarn(t *testing.T) {
	for _, tc := range []struct{ name, block, want string }{
		{"background without invoke", "proposals:\n  fix:\n    execute:\n      background: true\n",
			`proposal "fix" execute: background: true requires invoke: to be set`},
		{"background in on_complete", "proposals:\n  fix:\n    execute:\n      invoke: host.noop\n      background: true\n      on_complete:\n        - {invoke: host.noop, background: true}\n",
			`proposal "fix" execute on_complete[0]: background: true is not allowed inside on_complete:`},
	} {
		for depth := range 4 {
			t.Run(tc.name+"/depth"+string(rune('0'+depth)), func(t *testing.T) {
				dir := t.TempDir()
				at := nestImports(t, dir, depth, "")
				write(t, at, "app.yaml", "app: {id: leaf}\nintents: {go: {}}\nroot: home\nstates:\n  home:\n    on:\n      go: [{target: done}]\n  done: {terminal: true}\n"+tc.block)
				_, ds := Load(dir, story.Options{})
				var found *diag.Diagnostic
				for i := range ds {
					if strings.Contains(ds[i].Message, tc.want) {
						found = &ds[i]
					}
				}
				want := diag.Error
				if depth > 0 {
					want = diag.Warning
				}
				switch {
				case found == nil:
					t.Fatalf("no finding %q in %v", tc.want, ds)
				case found.Severity != want:
					t.Errorf("%s: severity %v, want %v", found.Message, found.Severity, want)
				case depth > 0 && !strings.Contains(found.Message, proposalsIgnored):
					t.Errorf("%s: does not say why it is a warning", found.Message)
				}
			})
		}
	}
}
