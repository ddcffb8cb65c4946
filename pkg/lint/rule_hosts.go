package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHosts = &Rule{ID: "hosts", Severity: diag.Error, Summary: "invokes are in the hosts: allow-list when it is non-empty",
	Example: "hosts: [host.fs.read]\n# ... invoke: host.shell.run"}

// checkHosts: with a non-empty hosts: list, every invoke but iface.* ones
// (reference §8.2) must be listed. The list is the folded story's, as
// upstream checks the story after imports (probes guidewalk p9hosts), with
// the handlers its iface.* invokes are rewritten to (so one iface call
// anywhere in the tree makes the list non-empty: conformance
// hosts-iface-union).
func checkHosts(c *checker) {
	top := c.st
	for top.Importer() != nil {
		top = top.Importer()
	}
	allowed := append(slices.Clip(c.src.inheritedHosts(top)), c.src.ifaceHosts(top)...)
	if len(allowed) == 0 {
		return
	}
	allowed = append(allowed, c.st.Hosts...) // a hosts: declared child's own list
	c.eachEffect(func(e *story.Effect, site effSite) {
		inv := e.Invoke // as written, even templated, as upstream checks it
		if inv == "" || strings.HasPrefix(inv, "iface.") || slices.Contains(allowed, inv) || importerHas(c.st, "host", inv) {
			return
		}
		at, msg := site.Place(), fmt.Sprintf("%s: invoke %q is not declared in app hosts", site.String(), inv)
		if site.State != nil && !site.OnComplete && !site.Inline {
			if site.Intent == "" {
				at, msg = diag.StatePlace(site.State.Path), fmt.Sprintf("state %q: on_enter invoke %q is not declared in app hosts", site.State.Path, inv)
			} else {
				at, msg = diag.ArcPlace(site.State.Path, site.Intent), fmt.Sprintf("state %q intent %q: effect invoke %q is not declared in app hosts", site.State.Path, site.Intent, inv)
			}
		}
		c.rep.ErrAt(e.PosOf("invoke"), at, ruleHosts, "%s%s", msg, cmp.Or(c.didYouMean(inv, c.st.Hosts), " (add it to hosts:)"))
	})
	for _, n := range sortedMapKeys(c.st.Proposals) {
		ex := c.st.Proposals[n].Execute
		if ex == nil || ex.Invoke == "" || story.IsTemplated(ex.Invoke) || strings.HasPrefix(ex.Invoke, "iface.") || slices.Contains(allowed, ex.Invoke) {
			continue
		}
		// upstream checks the execute's on_complete, not its invoke
		c.rep.Warnf(ex.Pos, ruleHosts, "proposal %q execute: invoke %q is not declared in app hosts (the existing engine does not check it; list it under hosts:)", n, ex.Invoke)
	}
}
