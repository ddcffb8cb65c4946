package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleAgentArgs = &Rule{ID: "agent-args", Severity: diag.Warning, LintOnly: true,
	Summary: "host.agent.<verb> without an argument its verb needs (the call fails before any agent is asked)",
	Example: "- {invoke: host.agent.converse, with: {prompt: hello}}"}

// checkAgentArgs warns where an agent invoke's literal with: block lacks an
// argument its verb requires (pkg/engine agentArgsError).
func checkAgentArgs(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		verb := agentVerb(e.Invoke)
		missing := func(m map[string]any, k string) bool {
			v, ok := m[k]
			if !ok || v == nil {
				return true
			}
			s, isStr := v.(string)
			return isStr && !story.IsTemplated(s) && strings.TrimSpace(s) == ""
		}
		var why, key string
		switch verb {
		case "decide":
			if _, has := e.With["schema"]; has && missing(e.With, "schema") {
				why, key = "host.agent.decide: schema: argument is required", "schema"
			} else if has && missing(e.With, "prompt") && missing(e.With, "prompt_path") {
				why, key = "host.agent.decide: prompt: or prompt_path: argument is required", "prompt"
			}
		case "ask":
			if missing(e.With, "prompt") && missing(e.With, "prompt_path") {
				why, key = "host.agent.ask: prompt_path (or prompt) argument is required", "prompt"
			}
		case "converse":
			if missing(e.With, "question") {
				why, key = "host.agent.converse: question argument is required", "question"
			}
		case "extract":
			if _, ok := e.With["schema"]; !ok {
				why, key = "host.agent.extract: schema argument is required", "schema"
			}
		case "task":
			if missing(e.With, "agent") {
				why, key = "host.agent.task: agent: argument is required — declare a named agent in the agents: block", "agent"
			}
		}
		if why == "" {
			return
		}
		pos := e.WithPos(key)
		if _, ok := e.With[key]; !ok {
			pos = e.PosOf("invoke")
		}
		c.rep.WarnAt(pos, site.Place(), ruleAgentArgs, "%s: %s needs with.%s; the call fails at run time before any agent is asked (%s)", site.String(), e.Invoke, key, why)
	})
}
