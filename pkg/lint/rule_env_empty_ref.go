package lint

import (
	"strings"

	"kitsoki/pkg/diag"
)

var ruleEnvEmptyRef = &Rule{ID: "env-empty-ref", Severity: diag.Warning, LintOnly: true,
	Summary: "an agent_plugins env:/headers: or providers env: value holds an empty reference ${}, which makes the whole value \"\" and ends the substitution (as the existing engine)",
	Example: "agent_plugins:\n  agent.x: {plugin: subprocess, command: x, env: {TOKEN: \"pre-${}${SECRET}\"}}"}

// checkEnvEmptyRefs warns where an empty reference ${} ends a substituted
// value: the existing engine stops there and the whole value is "", so the
// text around it and every ${VAR} after it are lost (conformance
// plugin-env-empty-ref). There is no escape that writes a literal ${}.
func checkEnvEmptyRefs(c *checker) {
	const fix = "the existing engine stops substituting at an empty reference and drops the whole value, text and ${VAR}s after it included; remove the ${} (write \"\" for an empty value: there is no escape for a literal ${})"
	for _, alias := range sortedMapKeys(c.st.AgentPlugins) {
		ap := c.st.AgentPlugins[alias]
		if ap == nil {
			continue
		}
		for _, r := range ap.EmptyRefs {
			c.rep.Warnf(r.Pos, ruleEnvEmptyRef, "agent_plugins.%s: %s holds an empty reference ${}: the plugin receives %s — %s", alias, r.Field, received(r.Field), fix)
		}
	}
	for _, name := range sortedMapKeys(c.st.Providers) {
		pr := c.st.Providers[name]
		if pr == nil {
			continue
		}
		for _, r := range pr.EmptyRefs {
			c.rep.Warnf(r.Pos, ruleEnvEmptyRef, "providers.%s: %s holds an empty reference ${}: the agent's process receives %s — %s", name, r.Field, received(r.Field), fix)
		}
	}
}

// received names what a plugin is handed for field ("env.KEY" or
// "headers.KEY") once its value is "".
func received(field string) string {
	kind, key, _ := strings.Cut(field, ".")
	if kind == "headers" {
		return "the header " + key + ": \"\""
	}
	return key + "=\"\""
}
