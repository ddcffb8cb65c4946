package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// An undeclared interface lists the interfaces of the folded story, the
// top's own and every lifted one, wherever the invoke sits (an imported
// child's too), as upstream does (found by gen -kind iface -seed 1000:
// stories 039, 049, 053 and 074 listed only the top's own before).
func TestUndeclaredIfaceListsFoldedNames(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: pn, version: 0.1.0}
host_interfaces:
  tk: {description: t, operations: {get: {}}, default: host.tk1}
imports:
  kid: {source: ./kid, entry: k1, exits: {done: {to: s}}}
intents: {a: {}}
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { invoke: iface.nope.get } ] } ]
`)
	write(t, dir, "kid/app.yaml", `app: {id: kid, version: 0.1.0}
host_interfaces:
  ck: {description: t, operations: {get: {}}, default: host.tk1}
imports:
  gk: {source: ./gk, entry: g1, exits: {gdone: {to: k1}}}
intents: {b: {}}
root: k1
exits: {done: {}}
states:
  k1:
    on:
      b: [ { target: ., effects: [ { invoke: iface.nope.get } ] } ]
`)
	write(t, dir, "kid/gk/app.yaml", `app: {id: gk, version: 0.1.0}
host_interfaces:
  tk: {description: t, operations: {get: {}}, default: host.tk1}
intents: {c: {}}
root: g1
exits: {gdone: {}}
states:
  g1:
    on:
      c: [ { target: ., effects: [ { invoke: iface.tk.get } ] } ]
`)
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
	var got []string
	for _, d := range ds {
		if d.Rule == ruleInterfaces.ID && d.Severity == diag.Error {
			got = append(got, filepath.Base(filepath.Dir(d.File))+": "+d.Message)
		}
	}
	slices.Sort(got)
	want := `iface "nope" not declared (declared: [kid__ck kid__gk__tk tk])`
	if len(got) != 2 || !strings.HasSuffix(got[0], want) || !strings.HasSuffix(got[1], want) {
		t.Errorf("got %q, want two ending %q", got, want)
	}
}
