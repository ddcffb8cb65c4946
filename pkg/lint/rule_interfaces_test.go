package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// ifaceApp is a one-state story (a child's when exit is set): its
// host_interfaces lines, an imports: line or none, and an arc invoking inv.
func ifaceApp(id, ifaces, imports, inv string, exit bool) string {
	s := "app: {id: " + id + ", version: 0.1.0}\nhost_interfaces:\n" + ifaces
	if imports != "" {
		s += "imports:\n  " + imports + "\n"
	}
	if exit {
		s += "exits: {done: {}}\n"
	}
	return s + "intents: {a: {}}\nroot: s\nstates:\n  s:\n    on:\n      a: [ { target: ., effects: [ { invoke: '" + inv + "' } ] } ]\n"
}

// ifaceDiags loads dir/app.yaml and returns its interfaces findings, each
// "<dir of its file>: <message>", errors and the others apart, sorted.
func ifaceDiags(t *testing.T, dir string) (errs, others []string) {
	t.Helper()
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
	for _, d := range ds {
		m := filepath.Base(filepath.Dir(d.File)) + ": " + d.Message
		switch {
		case d.Rule != ruleInterfaces.ID:
		case d.Severity == diag.Error:
			errs = append(errs, m)
		default:
			others = append(others, m)
		}
	}
	slices.Sort(errs)
	slices.Sort(others)
	return errs, others
}

const (
	tkIface  = "  tk: {description: t, operations: {get: {}}, default: host.tk1}\n"
	abIface  = "  a.b: {description: t, operations: {c: {}}, default: host.tk1}\n"
	kidToTop = "kid: {source: ./kid, entry: s, exits: {done: {to: s}}}"
)

// An undeclared interface lists the interfaces of the folded story, the
// top's own and every lifted one, wherever the invoke sits (an imported
// child's too), as upstream does (found by gen -kind iface -seed 1000:
// stories 039, 049, 053 and 074 listed only the top's own before).
func TestUndeclaredIfaceListsFoldedNames(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", ifaceApp("pn", tkIface, kidToTop, "iface.nope.get", false))
	write(t, dir, "kid/app.yaml", ifaceApp("kid", "  ck: {description: t, operations: {get: {}}, default: host.tk1}\n",
		"gk: {source: ./gk, entry: s, exits: {done: {to: s}}}", "iface.nope.get", true))
	write(t, dir, "kid/gk/app.yaml", ifaceApp("gk", tkIface, "", "iface.tk.get", true))
	errs, _ := ifaceDiags(t, dir)
	want := `iface "nope" not declared (declared: [kid__ck kid__gk__tk tk])`
	if len(errs) != 2 || !strings.HasSuffix(errs[0], want) || !strings.HasSuffix(errs[1], want) {
		t.Errorf("got %q, want two ending %q", errs, want)
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
		write(t, dir, "app.yaml", ifaceApp("pt", tkIface+abIface, "", inv, false))
		errs, others := ifaceDiags(t, dir)
		got := append(errs, others...)
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
	write(t, dir, "app.yaml", ifaceApp("pe", "", kidToTop, "iface.kid__a.b.c", false))
	write(t, dir, "kid/app.yaml", ifaceApp("kid", abIface, "", "iface.a.b.c", true))
	errs, warns := ifaceDiags(t, dir)
	want := `invoke "iface.a.b.c": iface "a.b" not declared (declared: [kid__a.b])`
	if len(errs) != 1 || !strings.HasSuffix(errs[0], want) {
		t.Errorf("errors %q, want one ending %q", errs, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `runs the importer's interface "a.b", not this story's`) {
		t.Errorf("warnings %q, want one on the call leaving kid's scope", warns)
	}
}
