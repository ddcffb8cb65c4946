package story

import (
	"fmt"
	"strings"
	"time"

	"kitsoki/internal/lazyre"
)

// checkCallTimeout: an effect's timeout: (the hard timeout of one
// host.agent.* call, a kitsoki extension) is a positive Go duration and
// only sits on agent invokes.
func checkCallTimeout(c *checker) {
	c.eachEffect(func(e *Effect, site effSite) {
		if !e.Written.Has("timeout") && e.Timeout() == "" {
			return
		}
		if agentVerb(e.Invoke) == "" && !isTemplated(e.Invoke) {
			c.rep.errf(e.keyPos("timeout"), ruleCallTimeout, "%s: timeout: %q only applies to host.agent.* invokes (got invoke %q); remove it or use the state's timeout: for a state deadline", site.Loc(), e.Timeout(), e.Invoke)
			return
		}
		if _, err := e.CallTimeout(); err != nil {
			c.rep.errf(e.keyPos("timeout"), ruleCallTimeout, "%s: %v", site.Loc(), err)
		}
	})
}

// CallTimeout parses the effect's timeout: (0 when unset).
func (e *Effect) CallTimeout() (time.Duration, error) {
	if e.Timeout() == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(e.Timeout())
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout: %q is not a positive duration; write it like 90s or 5m", e.Timeout())
	}
	return d, nil
}

// aliasWorldRefRe matches an alias template that is exactly one world variable.
var aliasWorldRefRe = &lazyre.Regexp{Expr: `^\{\{\s*world\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$`}

// checkAgentTemplate: a templated agent: alias is rendered at dispatch.
// When it is exactly `{{ world.x }}` and x declares a default or values,
// each of those must be a declared agent_plugins alias — the check a run
// would make at dispatch, made at load.
func checkAgentTemplate(c *checker) {
	c.eachEffect(func(e *Effect, site effSite) {
		if !isTemplated(e.Agent()) || agentVerb(e.Invoke) == "" || site.Template {
			return
		}
		m := aliasWorldRefRe.FindStringSubmatch(strings.TrimSpace(e.Agent()))
		if m == nil {
			return
		}
		var wv *WorldVar
		for _, v := range c.st.World {
			if v.Name == m[1] {
				wv = v
			}
		}
		if wv == nil {
			return
		}
		cands := append([]any{wv.Default}, wv.Values...)
		for _, v := range cands {
			s, ok := v.(string)
			if !ok || s == "" || isTemplated(s) {
				continue
			}
			if c.st.AgentPlugins[s] == nil && !c.st.pluginAliases[s] && c.st.pluginFor(s) == nil {
				c.rep.errf(e.keyPos("agent"), ruleAgentTemplate, "%s: agent %q renders to %q (a value of world.%s), which is not declared in agent_plugins (declared: %s)",
					site.Loc(), e.Agent(), s, m[1], strings.Join(sortedMapKeys(c.st.AgentPlugins), ", "))
			}
		}
	})
}
