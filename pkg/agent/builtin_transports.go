package agent

import "kitsoki/pkg/story"

// defaultBuilders returns the builders for the plugin types that are built
// from YAML declarations and live in this package: subprocess
// (subprocess.go), mcp_http (mcp_http.go) and builtin.claude_cli
// (claude_cli.go). builtin.inprocess is not built: the registry wires agents
// registered with RegisterInProcess. builtin.local_llm lives in
// pkg/agent/localllm (it fetches and supervises a llama-server, which this
// contract package must not import): the composition root (pkg/compose)
// adds localllm.New through RegistryOptions.Builders, which may add or
// replace any builder.
func defaultBuilders() map[string]Builder {
	return map[string]Builder{
		story.PluginSubprocess: newSubprocessTransport,
		story.PluginMCPHTTP:    newMCPHTTPTransport,
		story.PluginClaudeCLI:  newClaudeCLITransport,
	}
}

// unwiredHint says how a plugin type without a builder is wired in.
func unwiredHint(plugin string) string {
	if plugin == story.PluginLocalLLM {
		return "builtin.local_llm is wired by the composition root; a program that builds a Registry itself passes localllm.New (kitsoki/pkg/agent/localllm) in RegistryOptions.Builders"
	}
	return "declare the alias with another plugin (subprocess, mcp_http, builtin.claude_cli)"
}
