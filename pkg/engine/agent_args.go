package engine

import "strings"

// agentArgsError is the domain error upstream's host.agent.<verb> handler
// returns, before any agent is asked, when the rendered with: block lacks
// an argument the verb needs (agent-contract §12); "" when the call may go
// out.
func agentArgsError(verb string, with map[string]any) string {
	str := func(k string) string { s, _ := with[k].(string); return s }
	blank := func(k string) bool { return strings.TrimSpace(str(k)) == "" }
	switch verb {
	case "decide":
		if blank("schema") {
			return "host.agent.decide: schema: argument is required"
		}
		if blank("prompt") && str("prompt_path") == "" {
			return "host.agent.decide: prompt: or prompt_path: argument is required"
		}
		if !blank("prompt") && !blank("prompt_path") {
			return "host.agent.decide: prompt: and prompt_path: are mutually exclusive — set only one"
		}
	case "ask":
		if blank("prompt") && str("prompt_path") == "" {
			return "host.agent.ask: prompt_path (or prompt) argument is required"
		}
	case "converse":
		if blank("question") {
			return "host.agent.converse: question argument is required"
		}
	case "extract":
		if str("schema") == "" {
			return "host.agent.extract: schema argument is required"
		}
	case "task":
		if str("agent") == "" {
			return "host.agent.task: agent: argument is required — declare a named agent in the agents: block"
		}
	}
	return ""
}
