package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// runsStarlark reports whether an effect's invoke runs host.starlark.run
// once upstream's load rewrites interfaces (stage 6), which checks the
// rewritten invoke's script like a direct one's: directly, or through
// iface.<name>.run whose binding on some import path is host.starlark (an
// inline effects: list and a proposal's execute are not rewritten).
func runsStarlark(st *story.Story, e *story.Effect, site effSite) bool {
	if e.Invoke == "host.starlark.run" {
		return true
	}
	if !strings.HasPrefix(e.Invoke, "iface.") || site.Inline || site.InProposal() {
		return false
	}
	scope, inv := escapedIface(st, e.Invoke)
	name, op, ok := story.IfaceCall(inv)
	if !ok {
		return false
	}
	return slices.ContainsFunc(ifaceTargets(scope, name), func(to string) bool { return to+"."+op == "host.starlark.run" })
}

// ifaceTargets are the handlers st's interface name is bound to, one per
// import path from the top: the highest importer's host_bindings: of the
// lifted name wins, else the interface's default:.
func ifaceTargets(st *story.Story, name string) []string {
	def := ""
	if hi := st.HostInterfaces[name]; hi != nil {
		def = hi.Default
	} else if !lifted(st, "iface", name) {
		return nil
	}
	return boundAbove(st, name, def)
}

// boundAbove is below (the binding so far of cur's interface want) as each
// import path above cur leaves it.
func boundAbove(cur *story.Story, want, below string) []string {
	imp := cur.Importer()
	if imp == nil {
		return []string{below}
	}
	var out []string
	for _, a := range imp.ImportOrder {
		im := imp.Imports[a]
		if im == nil || im.Child != cur {
			continue
		}
		b := below
		if v := im.HostBindings[want]; v != "" {
			b = v
		}
		out = append(out, boundAbove(imp, a+"__"+want, b)...)
	}
	return out
}
