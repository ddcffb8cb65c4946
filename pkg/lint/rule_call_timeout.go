package lint

import (
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleAgentTemplate = &Rule{ID: "agent-template", Severity: diag.Warning, LintOnly: true,
	Summary: "a templated agent: alias that is one world variable renders to declared aliases",
	Example: "- {invoke: host.agent.ask, agent: \"{{ world.who }}\"}   # who: {default: agent.nope}"}

var ruleCallTimeout = &Rule{ID: "call-timeout", Severity: diag.Error,
	Summary: "an effect's timeout: is a positive duration on a host.agent.* invoke (a kitsoki extension the existing engine refuses: a warning)",
	Example: "- {invoke: host.agent.ask, timeout: soon}"}

// checkCallTimeout: an effect's timeout: (a kitsoki extension) is a
// positive duration on an agent invoke. The existing engine's loader
// refuses the key (unknown field "timeout"), so a valid one is a warning
// that the story no longer runs there (probe hunt52-agent-timeout-field).
func checkCallTimeout(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !e.Written.Has("timeout") && e.Timeout() == "" {
			return
		}
		if agentVerb(e.Invoke) == "" && !story.IsTemplated(e.Invoke) {
			c.rep.ErrAt(e.PosOf("timeout"), site.Place(), ruleCallTimeout, "%s: timeout: %q only applies to host.agent.* invokes (got invoke %q); remove it or use the state's timeout: for a state deadline", site.String(), e.Timeout(), e.Invoke)
			return
		}
		if _, err := e.CallTimeout(); err != nil {
			c.rep.ErrAt(e.PosOf("timeout"), site.Place(), ruleCallTimeout, "%s: %v", site.String(), err)
			return
		}
		c.rep.WarnAt(e.PosOf("timeout"), site.Place(), ruleCallTimeout, "%s: timeout: is a kitsoki extension: the existing engine refuses the whole story (unknown field \"timeout\"), so none of its fixtures run there; if the story must run on both engines, remove it and pass run --call-timeout instead", site.String())
	})
}

// aliasWorldRefRe matches an alias template that is exactly one world variable.
var aliasWorldRefRe = &lazyre.Regexp{Expr: `^\{\{\s*world\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$`}

// checkAgentTemplate: an agent: alias that is exactly `{{ world.x }}`
// renders to declared aliases: x's default and values.
func checkAgentTemplate(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !story.TemplatedAt(story.FieldAgentAlias, e.Agent()) || agentVerb(e.Invoke) == "" || site.Template {
			return
		}
		m := aliasWorldRefRe.FindStringSubmatch(strings.TrimSpace(e.Agent()))
		if m == nil {
			return
		}
		wv := c.st.Var(m[1])
		if wv == nil {
			return
		}
		for _, v := range append([]any{wv.Default}, wv.Values...) {
			s, ok := v.(string)
			if !ok || s == "" || story.IsTemplated(s) {
				continue
			}
			if !c.aliasDeclared(s) {
				c.rep.WarnAt(e.PosOf("agent"), site.Place(), ruleAgentTemplate, "%s: agent %q renders to %q (a value of world.%s), which is not declared in agent_plugins (%s)",
					site.String(), e.Agent(), s, m[1], c.declaredAliasText())
			}
		}
	})
}
