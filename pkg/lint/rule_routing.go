package lint

import (
	"cmp"
	"strconv"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// checkRouting: the top-level routing: block (reference §3.1, §9.6).
func checkRouting(c *checker) {
	r := c.st.Routing
	if r == nil {
		return
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"semantic_high_bar", r.SemanticHighBar}, {"semantic_mid_bar", r.SemanticMidBar}} {
		if b.v != nil && (*b.v < 0 || *b.v > 1) {
			c.rep.Errf(r.Pos, story.RuleRouting, "routing.%s: %v is outside [0, 1]", b.name, *b.v)
		}
	}
	high, mid := 0.80, 0.65
	if r.SemanticHighBar != nil {
		high = *r.SemanticHighBar
	}
	if r.SemanticMidBar != nil {
		mid = *r.SemanticMidBar
	}
	if high <= mid {
		c.rep.Errf(r.Pos, story.RuleRouting, "routing.semantic_high_bar (%v) must be greater than routing.semantic_mid_bar (%v)", high, mid)
	}
	if ffb, ok := r.Raw["free_form_fallback"]; ok && ffb != nil { // ~ is no fallback, as upstream
		switch {
		case r.FreeFormFallbackState == "":
			c.rep.Errf(r.Pos, story.RuleRouting, "routing.free_form_fallback.state is required")
		case r.FreeFormFallbackIntent == "":
			c.rep.Errf(r.Pos, story.RuleRouting, "routing.free_form_fallback.intent is required")
		default:
			s := c.st.State(r.FreeFormFallbackState)
			if s == nil {
				c.rep.Errf(r.Pos, story.RuleRouting, "routing.free_form_fallback.state %q is not declared in states", r.FreeFormFallbackState)
				break
			}
			c.checkArcIntent(s, r.Pos, story.RuleRouting, diag.Place{}, "routing.free_form_fallback.intent", "in state "+strconv.Quote(s.Path), r.FreeFormFallbackIntent, true)
		}
	}
	alias := cmp.Or(r.ExtractLLMAgent, "agent.local")
	if r.ExtractLLMOnNoMatch != nil && *r.ExtractLLMOnNoMatch && c.st.AgentPlugins[alias] == nil {
		c.rep.Warnf(r.Pos, story.RuleRouting, "routing.extract_llm_agent %q is not declared in agent_plugins; the router's LLM tier has no backend", alias)
	}
}
