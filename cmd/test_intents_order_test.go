package cmd

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// `kitsoki test intents` reads the static recording, then the story, then
// the fixtures, as upstream does, --dry-run included: a run with several
// broken inputs names the first of them, and a dry run with a broken
// recording or story is refused (exit 2), not planned.
func TestIntentsReadOrder(t *testing.T) {
	goodApp := "app: { id: order, version: 0.1.0 }\nintents: { go: {} }\nroot: a\nstates:\n  a: { on: { go: [{ target: a }] } }\n"
	goodRec := "kind: recording\nentries:\n  - { state: a, input: go, intent: { name: go } }\n"
	goodFx := "test_kind: intents\nstate: a\nfixtures: [{ id: x, inputs: [go] }]\n"
	for _, c := range []struct {
		name          string
		app, rec, fx  string
		want          string
		dryRunPlanned bool
	}{
		{"all good", goodApp, goodRec, goodFx, "", true},
		{"recording first", "app: { id: x\n", "kind: nope\n", "state: [a\n", `recording "`, false},
		{"story second", "app: { id: x\n", goodRec, "test_kind: intents\nstate: [a\n", "app.yaml", false},
		{"fixtures last", goodApp, goodRec, "test_kind: intents\nstate: [a\n", "intents/a.yaml", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := storytest.TempTree(t, map[string]string{"app.yaml": c.app, "recording.yaml": c.rec, "intents/a.yaml": c.fx})
			for _, dry := range []bool{false, true} {
				args := []string{"test", "intents", dir}
				if dry {
					args = append(args, "--dry-run")
				}
				code, out, errOut := runCmd(t, args...)
				switch {
				case c.want == "" && code != 0:
					t.Errorf("dry-run %v: exit %d\n%s%s", dry, code, out, errOut)
				case c.want != "" && (code != 2 || !strings.Contains(errOut, c.want)):
					t.Errorf("dry-run %v: exit %d, want 2 naming %q\n%s%s", dry, code, c.want, out, errOut)
				}
				if dry && c.dryRunPlanned != strings.Contains(out, "Dry run:") {
					t.Errorf("dry run planned: %v\n%s", !c.dryRunPlanned, out)
				}
			}
		})
	}
}
