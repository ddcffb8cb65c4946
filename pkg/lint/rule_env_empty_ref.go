package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
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
	warn := func(owner, who string, refs []story.EmptyRef) {
		for _, r := range refs {
			c.rep.Warnf(r.Pos, ruleEnvEmptyRef, "%s: %s holds an empty reference ${}: %s receives %s — %s", owner, r.Field, who, received(r.Field), fix)
		}
	}
	for _, alias := range sortedMapKeys(c.st.AgentPlugins) {
		if ap := c.st.AgentPlugins[alias]; ap != nil {
			warn("agent_plugins."+alias, "the plugin", ap.EmptyRefs)
		}
	}
	for _, name := range sortedMapKeys(c.st.Providers) {
		if pr := c.st.Providers[name]; pr != nil {
			warn("providers."+name, "the agent's process", pr.EmptyRefs)
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
