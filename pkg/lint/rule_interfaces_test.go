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

// An iface invoke is read as upstream resolves it, templates as written:
// the op after the last dot. Each want is the existing engine's
// `validate` message for the invoke (golden iface-dotted-name).
func TestIfaceInvokeTexts(t *testing.T) {
	for inv, want := range map[string]string{
		"iface.{{ world.which }}.get": `iface "{{ world.which }}" not declared (declared: [a.b tk])`,
		"iface.tk.{{ world.op }}":     `iface "tk.{{ world" not declared (declared: [a.b tk])`,
		"iface.tk.get.more":           `iface "tk.get" not declared (declared: [a.b tk])`,
		"iface.tk.":                   `op "" not declared on iface "tk"`,
		"iface..get":                  `expected iface.<name>.<op>`,
		"iface.tk":                    `expected iface.<name>.<op>`,
		"iface.a.b.c":                 "",
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", `app: {id: pt, version: 0.1.0}
host_interfaces:
  tk: {description: t, operations: {get: {}}, default: host.tk1}
  a.b: {description: t, operations: {c: {}}, default: host.tk1}
world:
  which: {type: string, default: tk}
  op: {type: string, default: get}
intents: {b: {}}
root: s
states:
  s:
    on:
      b: [ { target: ., effects: [ { invoke: '`+inv+`' } ] } ]
`)
		_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleInterfaces.ID {
				got = append(got, d.Message)
			}
		}
		switch {
		case want == "" && len(got) > 0:
			t.Errorf("%s: got %q, want none", inv, got)
		case want != "" && (len(got) != 1 || !strings.HasSuffix(got[0], want)):
			t.Errorf("%s: got %q, want one ending %q", inv, got, want)
		}
	}
}

// A child's call its import fold does not rename (kid declares a.b but no
// interface named a) is resolved in the importer's scope, as upstream
// does: the top declares no a.b, so it is refused there by the top's list,
// and validate warns that kid's call leaves kid's own a.b.
func TestChildIfaceEscapesToImporter(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: pe, version: 0.1.0}
imports:
  kid: {source: ./kid, entry: k1, exits: {done: {to: s}}}
intents: {a: {}}
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { invoke: iface.kid__a.b.c } ] } ]
`)
	write(t, dir, "kid/app.yaml", `app: {id: kid, version: 0.1.0}
host_interfaces:
  a.b: {description: t, operations: {c: {}}, default: host.tk2}
intents: {own: {}}
root: k1
exits: {done: {}}
states:
  k1:
    on:
      own: [ { target: ., effects: [ { invoke: iface.a.b.c } ] } ]
`)
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
	var errs, warns []string
	for _, d := range ds {
		switch {
		case d.Rule != ruleInterfaces.ID:
		case d.Severity == diag.Error:
			errs = append(errs, d.Message)
		default:
			warns = append(warns, d.Message)
		}
	}
	want := `invoke "iface.a.b.c": iface "a.b" not declared (declared: [kid__a.b])`
	if len(errs) != 1 || !strings.HasSuffix(errs[0], want) {
		t.Errorf("errors %q, want one ending %q", errs, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `runs the importer's interface "a.b", not this story's`) {
		t.Errorf("warnings %q, want one on the call leaving kid's scope", warns)
	}
}
