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
			c.rep.Errf(hi.Pos, ruleInterfaces, "host_interface %q: no default and no host_binding override", n)
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !strings.HasPrefix(e.Invoke, "iface.") || story.IsTemplated(e.Invoke) {
			return
		}
		parts := strings.Split(e.Invoke, ".")
		p := e.PosOf("invoke")
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
			c.rep.Errf(p, ruleInterfaces, "%s: invoke %q: expected iface.<name>.<op>", site.String(), e.Invoke)
			return
		}
		hi := c.st.HostInterfaces[parts[1]]
		if hi == nil && lifted(c.st, "iface", parts[1]) {
			return
		}
		if hi == nil {
			c.rep.Errf(p, ruleInterfaces, "%s: invoke %q: iface %q not declared (declared: [%s])", site.String(), e.Invoke, parts[1], nameList(c.listOnce("host_interfaces", func() []string { return foldedIfaces(c.st) }), " "))
			return
		}
		if hi.Operations[parts[2]] == nil {
			c.rep.Errf(p, ruleInterfaces, "%s: invoke %q: op %q not declared on iface %q%s", site.String(), e.Invoke, parts[2], parts[1], c.didYouMeanOf(parts[2], func() []string { return sortedMapKeys(hi.Operations) }))
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
