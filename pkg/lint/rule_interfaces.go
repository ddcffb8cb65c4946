package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleInterfaces = &Rule{ID: "interfaces", Severity: diag.Error, Summary: "host_interfaces and iface.<name>.<op> invokes",
	Example: "- invoke: iface.vcs.push   # vcs not declared"}

// checkInterfaces: host_interfaces have a default binding and iface.*
// invokes name a declared interface and operation (reference §9.4).
func checkInterfaces(c *checker) {
	for _, n := range sortedMapKeys(c.st.HostInterfaces) {
		hi := c.st.HostInterfaces[n]
		if hi.Default == "" && !boundByImporter(c.st, n) {
			c.rep.Errf(hi.Pos, ruleInterfaces, "host_interface %q: no default and no host_binding override", liftedName(c.st, n))
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !strings.HasPrefix(e.Invoke, "iface.") {
			return
		}
		// a templated invoke is not rendered first: upstream reads its
		// text as the name, which no story declares
		name, op, ok := story.IfaceCall(e.Invoke)
		p := e.PosOf("invoke")
		if !ok {
			c.rep.ErrAt(p, site.Place(), ruleInterfaces, "%s: invoke %q: expected iface.<name>.<op>", site.String(), e.Invoke)
			return
		}
		scope := c.st
		if s, inv := escapedIface(c.st, e.Invoke); s != c.st {
			// no fold renames it: it is resolved in an importer's scope
			if c.st.HostInterfaces[name] != nil {
				c.rep.WarnAt(p, site.Place(), ruleInterfaces, "%s: invoke %q runs the importer's interface %q, not this story's: an import renames a call by its first segment, and this story declares no interface %q (the existing engine does the same); rename the interface without dots", site.String(), e.Invoke, name, strings.SplitN(name, ".", 2)[0])
			}
			scope = s
			name, op, _ = story.IfaceCall(inv)
		}
		hi := scope.HostInterfaces[name]
		if hi == nil && lifted(scope, "iface", name) {
			return
		}
		if hi == nil {
			c.rep.ErrAt(p, site.Place(), ruleInterfaces, "%s: invoke %q: iface %q not declared (declared: [%s])", site.String(), e.Invoke, name, nameList(c.listOnce("host_interfaces", func() []string { return foldedIfaces(c.st) }), " "))
			return
		}
		if hi.Operations[op] == nil {
			c.rep.ErrAt(p, site.Place(), ruleInterfaces, "%s: invoke %q: op %q not declared on iface %q%s", site.String(), e.Invoke, op, name, c.didYouMeanOf(op, func() []string { return sortedMapKeys(hi.Operations) }))
		}
	})
}

// foldedIfaces are the interfaces of the story st is folded into, as
// upstream lists them for an undeclared one wherever the invoke sits (an
// imported child's too): the top story's own and every lifted
// <alias>__<name> of its imports, at every depth, sorted (probed on the
// existing engine: a child's iface.nope.get lists [kid__ck kid__gk__tk tk]).
func foldedIfaces(st *story.Story) []string {
	for st.Importer() != nil {
		st = st.Importer()
	}
	var out []string
	var walk func(st *story.Story, prefix string)
	walk = func(st *story.Story, prefix string) {
		for n := range st.HostInterfaces {
			out = append(out, prefix+n)
		}
		for alias, im := range st.Imports {
			if im.Child != nil {
				walk(im.Child, prefix+alias+"__")
			}
		}
	}
	walk(st, "")
	slices.Sort(out)
	return out
}

// escapedIface is where a child's iface invoke is resolved, and its text
// there: each import fold renames a child's call by its first segment
// (iface.<first>.<rest> becomes iface.<alias>__<first>.<rest> when the
// child declares or lifts <first>), and a call no fold renames is read in
// the importer above as written (probed on the existing engine: a child's
// iface.a.b.c, declaring a.b but no a, ran the top story's a.b). The
// scope is st itself when st's own fold renames the call.
func escapedIface(st *story.Story, inv string) (*story.Story, string) {
	first, _, _ := strings.Cut(strings.TrimPrefix(inv, "iface."), ".")
	if st.Importer() == nil || st.HostInterfaces[first] != nil || lifted(st, "iface", first) {
		return st, inv
	}
	return escapedIface(st.Importer(), inv)
}
