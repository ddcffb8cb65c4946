package lint

import (
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
			c.rep.Errf(p, ruleInterfaces, "%s: invoke %q: iface %q not declared (declared: [%s])", site.String(), e.Invoke, parts[1], nameList(c.listOnce("host_interfaces", func() []string { return sortedMapKeys(c.st.HostInterfaces) }), " "))
			return
		}
		if hi.Operations[parts[2]] == nil {
			c.rep.Errf(p, ruleInterfaces, "%s: invoke %q: op %q not declared on iface %q%s", site.String(), e.Invoke, parts[2], parts[1], c.didYouMeanOf(parts[2], func() []string { return sortedMapKeys(hi.Operations) }))
		}
	})
}
