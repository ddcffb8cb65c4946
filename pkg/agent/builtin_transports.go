package agent

import "kitsoki/pkg/story"

// defaultBuilders returns the builders of the YAML-declared plugin types
// that live in this package. builtin.inprocess is wired by
// RegisterInProcess; builtin.local_llm is pkg/agent/localllm's, added by
// pkg/compose through RegistryOptions.Builders.
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
