package story

import (
	"maps"
	"slices"

	"kitsoki/internal/yamlnode"
)

// Supported agent plugin types; cassettes are built in code, never declared.
const (
	PluginClaudeCLI  = "builtin.claude_cli"
	PluginInProcess  = "builtin.inprocess"
	PluginSubprocess = "subprocess"
	PluginMCPHTTP    = "mcp_http"
	PluginLocalLLM   = "builtin.local_llm"

	// DefaultAgentAlias is injected when agent_plugins does not declare it.
	DefaultAgentAlias = "agent.claude"
)

// Pos is a position in a story file. Line and Col are 1-based.
type Pos = yamlnode.Pos

// AgentPlugin is one resolved `agent_plugins:` entry. Env and Headers hold
// values after ${VAR} substitution: they are secrets and must never be
// printed, logged or written to a trace. Use SecretValues to redact them.
type AgentPlugin struct {
	Alias      string
	Plugin     string
	Command    string
	Args       []string
	Endpoint   string
	Tool       string // mcp_http tool name; "" means "ask"
	Env        map[string]string
	Headers    map[string]string
	Model      string // local_llm managed model id
	Grammar    bool
	JSONSchema bool // local_llm: send response_format for any schema
	Port       int
	ServerBin  string
	ClaudeBin  string // builtin.claude_cli: path to the claude binary ("" = PATH)
	APIKeyEnv  string // local_llm: env var read at call time for a bearer token
	SHA256     string // subprocess: the command's pinned sha256 (64 hex digits, "" = none)
	Injected   bool   // the default agent.claude added by the loader
	Pos        Pos

	// Secrets holds what ${VAR} substitution produced in env:/headers:,
	// and api_key_env's value.
	Secrets []string
	// EmptyRefs is where an empty reference ${} ended an env:/headers:
	// value (substituted as "").
	EmptyRefs []EmptyRef
}

// SecretValues returns what must be redacted from every output: each
// non-empty ${VAR} value substituted in env: or headers:, each whole value
// that contained one, every header value and api_key_env's value. Literal
// env values are configuration: masking them would corrupt every trace
// naming them.
func (p *AgentPlugin) SecretValues() []string {
	all := slices.Concat(p.Secrets, slices.Collect(maps.Values(p.Headers)))
	return slices.DeleteFunc(all, func(v string) bool { return v == "" })
}
