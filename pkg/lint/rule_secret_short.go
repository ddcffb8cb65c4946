package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleSecretTooShort = &Rule{ID: "secret-too-short", Severity: diag.Warning, LintOnly: true,
	Summary: "an agent_plugins secret (a ${VAR} in env:/headers:, a header, the api_key_env: variable's value) is under 4 bytes and cannot be masked in traces and logs",
	Example: "agent_plugins:\n  agent.x: {plugin: subprocess, command: x, env: {LEVEL: \"${L}\"}}   # L=1"}

// checkShortSecrets warns about agent_plugins secrets shorter than
// story.MinSecretBytes, which cannot be masked; never naming the value.
func checkShortSecrets(c *checker) {
	for _, alias := range sortedMapKeys(c.st.AgentPlugins) {
		ap := c.st.AgentPlugins[alias]
		if ap == nil {
			continue
		}
		short := 0
		for _, v := range ap.SecretValues() {
			if v != "" && len(v) < story.MinSecretBytes {
				short++
			}
		}
		if short > 0 {
			c.rep.Warnf(ap.Pos, ruleSecretTooShort,
				"agent_plugins.%s: %d secret value(s) (a ${VAR} in env:/headers:, a header, the api_key_env: variable's value) are shorter than %d bytes and cannot be protected: kitsoki never masks values that short in traces or output (use a longer value, or a literal if it is not a secret)",
				alias, short, story.MinSecretBytes)
		}
	}
}
