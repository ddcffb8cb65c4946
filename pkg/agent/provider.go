package agent

import (
	"net/url"
	"strings"

	"kitsoki/pkg/story"
)

// providerOf names who answers alias, for the OpenTelemetry GenAI
// attribute gen_ai.provider.name (kitsoki trace export --otlp): the
// well-known value where there is one ("anthropic" for the claude CLI,
// "openai" for api.openai.com), otherwise a custom value naming the
// transport ("llama.cpp" for a managed sidecar, the endpoint's host for an
// OpenAI-compatible server, "kitsoki.subprocess", "kitsoki.mcp_http",
// "kitsoki.inprocess").
func (r *Registry) providerOf(alias string) string {
	d := r.decls[alias]
	if d == nil {
		return "kitsoki.unknown"
	}
	switch d.Plugin {
	case story.PluginClaudeCLI:
		return "anthropic"
	case story.PluginLocalLLM:
		if d.Endpoint == "" {
			return "llama.cpp"
		}
		u, err := url.Parse(d.Endpoint)
		if err != nil || u.Hostname() == "" {
			return "openai_compatible"
		}
		host := strings.ToLower(u.Hostname())
		if host == "api.openai.com" {
			return "openai"
		}
		return host
	}
	return "kitsoki." + strings.TrimPrefix(d.Plugin, "builtin.")
}
