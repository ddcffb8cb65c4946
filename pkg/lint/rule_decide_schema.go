package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleDecideSchema = &Rule{ID: "decide-schema", Severity: diag.Warning, LintOnly: true,
	Summary: "host.agent.decide without a schema",
	Example: "- {invoke: host.agent.decide, with: {prompt: p.md}}"}

// checkDecideSchema warns about a host.agent.decide without with.schema:
// it fails at run time ("host.agent.decide: schema: argument is required").
func checkDecideSchema(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.agent.decide" {
			return
		}
		if _, ok := e.With["schema"]; !ok {
			c.rep.WarnAt(e.PosOf("invoke"), site.Place(), ruleDecideSchema, "%s: host.agent.decide has no with.schema; the call fails at run time (host.agent.decide: schema: argument is required)", site.String())
		}
	})
}
