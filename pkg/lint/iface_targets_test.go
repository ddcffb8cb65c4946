package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A call that runs host.starlark.run through an interface has its script
// checked as a direct call's is: upstream checks the invoke its load
// rewrote (probed: each want is the existing engine's validate verdict,
// the script missing in every case). The binding is the highest import's
// host_bindings:, else the default, on each import path.
func TestStarlarkThroughIface(t *testing.T) {
	kid := `app: {id: kid, version: 0.1.0}
host_interfaces:
  calc: {description: c, operations: {run: {}, go: {}}, default: host.starlark}
  other: {description: c, operations: {run: {}}, default: host.tkx}
intents: {own: {}, oth: {}, go: {}}
root: k1
exits: {done: {}}
states:
  k1:
    on:
      own: [ { target: ., effects: [ { invoke: iface.calc.run, with: { script: scripts/m1.star } } ] } ]
      oth: [ { target: ., effects: [ { invoke: iface.other.run, with: { script: scripts/m2.star } } ] } ]
      go: [ { target: ., effects: [ { invoke: iface.calc.go, with: { script: scripts/m3.star } } ] } ]
`
	for _, tc := range []struct {
		imports string
		want    []string // the scripts refused
	}{
		{"kid: {source: ./kid, entry: k1, exits: {done: {to: s}}}", []string{"m1"}},
		{"kid: {source: ./kid, entry: k1, host_bindings: {calc: host.tk1}, exits: {done: {to: s}}}", nil},
		{"kid: {source: ./kid, entry: k1, host_bindings: {other: host.starlark}, exits: {done: {to: s}}}", []string{"m1", "m2"}},
		// a second import of kid keeps the default: its copy is checked
		{"kid: {source: ./kid, entry: k1, host_bindings: {calc: host.tk1}, exits: {done: {to: s}}}\n  kid2: {source: ./kid, entry: k1, exits: {done: {to: s}}}", []string{"m1"}},
	} {
		dir := t.TempDir()
		write(t, dir, "kid/app.yaml", kid)
		write(t, dir, "app.yaml", "app: {id: pl, version: 0.1.0}\nimports:\n  "+tc.imports+"\nintents: {k: {}}\nroot: s\nstates:\n  s:\n    on:\n      k: [ { target: kid } ]\n")
		_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleStarlark.ID {
				for _, s := range []string{"m1", "m2", "m3"} {
					if strings.Contains(d.Message, `script "scripts/`+s+`.star" not found`) {
						got = append(got, s)
					}
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: scripts refused %q, want %q", tc.imports, got, tc.want)
		}
	}
	// the top story's own: a missing script, no sidecar, no script
	dir := t.TempDir()
	write(t, dir, "scripts/nosidecar.star", "def main(ctx):\n    return {}\n")
	for inv, want := range map[string]string{
		"{ invoke: iface.calc.run, with: { script: scripts/missing.star } }":   `host.starlark.run script "scripts/missing.star" not found`,
		"{ invoke: iface.calc.run, with: { script: scripts/nosidecar.star } }": `host.starlark.run script "scripts/nosidecar.star" has no sidecar`,
		"{ invoke: iface.calc.run, with: { inputs: {} } }":                     `host.starlark.run requires a non-empty with.script`,
	} {
		write(t, dir, "app.yaml", strings.Replace(ifaceApp("pk", "  calc: {description: c, operations: {run: {}}, default: host.starlark}\n", "", "X", false), "{ invoke: 'X' }", inv, 1))
		_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
		if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == ruleStarlark.ID && strings.Contains(d.Message, want) }) {
			t.Errorf("%s: no finding %q in %v", inv, want, ds)
		}
	}
}
