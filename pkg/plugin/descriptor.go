package plugin

import (
	"cmp"
	"slices"
	"sync"

	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// Source tells where a plugin comes from.
type Source string

const (
	sourceBuiltin  Source = "builtin"
	sourceExternal Source = "external"
)

// Descriptor describes one plugin: what it provides and what it needs.
type Descriptor struct {
	ID       string   `json:"id"`
	Version  string   `json:"version,omitempty"`
	Summary  string   `json:"summary"`
	Provides []string `json:"provides"`
	Requires []string `json:"requires"`
	Source   Source   `json:"source"`
	// Manifest is the manifest path of an external plugin.
	Manifest string `json:"manifest,omitempty"`
	// Kernel plugins are part of the trust boundary and cannot be
	// disabled (the trace: model-visible = logged).
	Kernel bool `json:"kernel,omitempty"`
}

// Built-in plugin ids.
const (
	idTrace   = "trace"
	idHostRun = "host.run"
	idRedact  = "redact"
	idBudget  = "budget"
)

// transportID returns the plugin id of an agent_plugins plugin type:
// "transport.subprocess", "transport.claude_cli", ... ("" for unknown).
func transportID(pluginType string) string { return transportOf(pluginType).id }

// transportOf is the transport of a plugin type (zero for unknown).
func transportOf(pluginType string) transportInfo {
	i := slices.IndexFunc(transports, func(t transportInfo) bool { return t.typ == pluginType })
	if i < 0 {
		return transportInfo{}
	}
	return transports[i]
}

type transportInfo struct {
	typ, id, summary, lifecycle string
}

var transports = []transportInfo{
	{story.PluginClaudeCLI, "transport.claude_cli", "builtin.claude_cli: runs the claude CLI once per call", "process per call"},
	{story.PluginInProcess, "transport.inprocess", "builtin.inprocess: Go agents compiled into the host", "in-process"},
	{story.PluginLocalLLM, "transport.local_llm", "builtin.local_llm: a managed llama-server sidecar", "sidecar per run"},
	{story.PluginMCPHTTP, "transport.mcp_http", "mcp_http: a remote MCP server over streamable HTTP", "one MCP session per run, reused"},
	{story.PluginSubprocess, "transport.subprocess", "subprocess: a JSON-RPC program on stdin/stdout", "process per run, started lazily, reused, respawned after a crash"},
}

// agentLifecycle is the lifecycle of one declaration: a builtin.local_llm
// with endpoint: talks to a server someone else runs, no sidecar.
func agentLifecycle(ap *story.AgentPlugin) string {
	if ap.Plugin == story.PluginLocalLLM && ap.Endpoint != "" {
		return "remote OpenAI-compatible endpoint, no sidecar (HTTP per call)"
	}
	return cmp.Or(transportOf(ap.Plugin).lifecycle, "unknown")
}

// builtinDescriptors returns the descriptors of every built-in plugin,
// sorted by id. They depend on nothing of a story, so they are built once
// per process; the slice and its descriptors are shared and only read
// (a caller appending to it gets a copy: its capacity is its length).
var builtinDescriptors = sync.OnceValue(func() []Descriptor {
	out := []Descriptor{
		{ID: idBudget, Summary: "halts agent calls once the run's reported cost or token total passes a limit",
			Provides: []string{"hook:agent/pre-dispatch", "hook:agent/post-return"}},
		{ID: idHostRun, Summary: "host.run and the built-ins running git, go or workspace-manager (host.git, host.git_worktree, host.local, host.workspace_manager.get): programs the story or its repository names",
			Provides: []string{"host:" + host.HandlerRun, "host:" + host.HandlerGit, "host:" + host.HandlerGitWorktree, "host:" + host.HandlerLocalCI, "host:" + host.HandlerWorkspaceManager}},
		{ID: idRedact, Summary: "masks patterns and named env var values in prompts before dispatch",
			Provides: []string{"hook:agent/pre-dispatch"}},
		{ID: idTrace, Summary: "the JSONL trace sink (kernel: cannot be disabled)", Provides: []string{"trace.sink"}, Kernel: true},
	}
	for _, t := range transports {
		out = append(out, Descriptor{ID: t.id, Summary: t.summary, Provides: []string{"transport:" + t.typ}})
	}
	for i := range out {
		out[i].Source = sourceBuiltin
		out[i].Requires = orEmpty(out[i].Requires)
	}
	sortDescriptors(out)
	return slices.Clip(out)
})
