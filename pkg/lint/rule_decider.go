package lint

import "kitsoki/pkg/diag"

var ruleDecider = &Rule{ID: "decider", Severity: diag.Error, Summary: "decider: block",
	Example: "decider: {threshold: 2}"}

// checkDecider: the top-level decider: block (reference §9.6).
func checkDecider(c *checker) {
	d := c.st.Decider
	if d == nil {
		return
	}
	if d.Agent == "" {
		c.rep.Errf(d.Pos, ruleDecider, "decider.agent is required")
	} else if len(c.st.Agents) > 0 && c.st.Agents[d.Agent] == nil {
		c.rep.Errf(d.Pos, ruleDecider, "decider.agent %q is not declared in agents", d.Agent)
	}
	if d.Schema == "" {
		c.rep.Errf(d.Pos, ruleDecider, "decider.schema is required")
	}
	if d.Threshold != nil && (*d.Threshold < 0 || *d.Threshold > 1) {
		c.rep.Errf(d.Pos, ruleDecider, "decider.threshold %v out of range [0,1]", *d.Threshold)
	}
}
