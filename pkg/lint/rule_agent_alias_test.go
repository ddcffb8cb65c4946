package lint

import (
	"strings"
	"testing"
)

// The agent-alias warning lists the aliases the story declares and names
// agent.claude apart when upstream's loader added it to the story: a
// story declaring only agent.fast never wrote agent.claude.
func TestAgentAliasNamesLoaderDefault(t *testing.T) {
	story := func(plugins string) string {
		return "app: {id: s}\nhosts: [host.agent.ask]\n" + plugins + `root: s
states:
  s:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.nope
        with: {prompt: hi}
    terminal: true
`
	}
	for _, c := range []struct{ name, plugins, want string }{
		{"none declared", "", "(agent.claude is the loader's default)"},
		{"one declared", "agent_plugins:\n  agent.fast: {plugin: builtin.inprocess}\n", "(declared: agent.fast; agent.claude is the loader's default)"},
		{"claude declared", "agent_plugins:\n  agent.claude: {plugin: builtin.inprocess}\n  agent.fast: {plugin: builtin.inprocess}\n", "(declared: agent.claude, agent.fast)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", story(c.plugins))
			out := wantDiags(t, dir)
			if !strings.Contains(out, `agent "agent.nope" is not declared in agent_plugins `+c.want) {
				t.Errorf("want %q in:\n%s", c.want, out)
			}
		})
	}
}
