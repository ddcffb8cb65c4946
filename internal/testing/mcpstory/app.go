package mcpstory

import (
	"fmt"
	"strings"
)

// Call is one step of the start state's on_enter: host (host.agent.decide,
// .extract, .ask) called through Alias, an mcp_http alias served at
// Endpoint, with Prompt and, when not empty, the story-relative Schema.
type Call struct {
	Alias, Endpoint string
	Host            string
	Prompt, Schema  string
}

// App returns an app.yaml with app id id, one mcp_http alias for each alias
// the calls name (in the order first named, at the endpoint of its first
// call), and a terminal start state making the calls in order.
func App(id string, calls ...Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: { id: %s, version: 0.1.0 }\nagent_plugins:\n", id)
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c.Alias] {
			seen[c.Alias] = true
			fmt.Fprintf(&b, "  %s:\n    plugin: mcp_http\n    endpoint: %s\n", c.Alias, c.Endpoint)
		}
	}
	b.WriteString("root: start\nstates:\n  start:\n    on_enter:\n")
	for _, c := range calls {
		fmt.Fprintf(&b, "      - invoke: %s\n        agent: %s\n", c.Host, c.Alias)
		if c.Schema != "" {
			fmt.Fprintf(&b, "        with: { prompt: %q, schema: %s }\n", c.Prompt, c.Schema)
		} else {
			fmt.Fprintf(&b, "        with: { prompt: %q }\n", c.Prompt)
		}
	}
	b.WriteString("    terminal: true\n")
	return b.String()
}
