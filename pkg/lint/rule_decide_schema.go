package lint

import (
	"kitsoki/pkg/story"
)

// checkDecideSchema warns about a host.agent.decide without with.schema:
// it fails at run time ("host.agent.decide: schema: argument is required").
func checkDecideSchema(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.agent.decide" {
			return
		}
		if _, ok := e.With["schema"]; !ok {
			c.rep.warnf(e.PosOf("invoke"), ruleDecideSchema, "%s: host.agent.decide has no with.schema; the call fails at run time (host.agent.decide: schema: argument is required)", site.Loc())
		}
	})
}
