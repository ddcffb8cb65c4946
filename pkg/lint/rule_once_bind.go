package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleOnceBind = &Rule{ID: "once-bind", Severity: diag.Error, Summary: "once: true needs a non-empty bind:",
	Example: "- {invoke: host.shell.run, once: true}"}

// checkOnceBind: once: true needs a non-empty bind: (reference §9.6).
func checkOnceBind(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Once() && len(e.Bind()) == 0 {
			c.rep.ErrAt(e.PosOf("once"), site.Place(), ruleOnceBind, "%s: once: true requires a non-empty bind: (the bind target is the cache that arms the skip)", site.String())
		}
	})
}
