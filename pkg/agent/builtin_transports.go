package agent

import "kitsoki/pkg/story"

// defaultBuilders returns the builders for the plugin types that are built
// from YAML declarations: subprocess (subprocess.go), mcp_http (mcp_http.go),
// builtin.claude_cli (claude_cli.go) and builtin.local_llm (local_llm.go).
// builtin.inprocess is not built: the registry wires agents registered with
// RegisterInProcess. RegistryOptions.Builders may add or replace builders.
func defaultBuilders() map[string]Builder {
	return map[string]Builder{
		story.PluginSubprocess: newSubprocessTransport,
		story.PluginMCPHTTP:    newMCPHTTPTransport,
		story.PluginClaudeCLI:  newClaudeCLITransport,
		story.PluginLocalLLM:   newLocalLLMTransport, // local_llm.go
	}
}
