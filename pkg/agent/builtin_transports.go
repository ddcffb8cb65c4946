package agent

// defaultBuilders returns the builders for the plugin types that are built
// from YAML declarations (subprocess, mcp_http, builtin.claude_cli).
// builtin.inprocess is not built: the registry wires agents registered with
// RegisterInProcess. builtin.local_llm arrives later through
// RegistryOptions.Builders.
//
// Placeholder: AGENT-TRANSPORTS owns this file from here on.
func defaultBuilders() map[string]Builder {
	return map[string]Builder{}
}
