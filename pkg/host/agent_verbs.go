package host

import (
	"slices"
	"strings"
)

// agentVerbs are the host.agent.<verb> calls the engine routes to its
// agent layer before the registry (host.agent.search is a registry
// handler).
var agentVerbs = []string{"ask", "ask_with_mcp", "converse", "decide", "extract", "task"}

// IsAgentVerb reports whether name is an engine-routed agent verb.
func IsAgentVerb(name string) bool {
	v, ok := strings.CutPrefix(name, "host.agent.")
	return ok && slices.Contains(agentVerbs, v)
}
