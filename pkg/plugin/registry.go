package plugin

import (
	"context"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// NewRegistry builds the agent registry of st under the assembly: only
// enabled aliases get a transport (a disabled one is never built or
// started), and a disabled alias answers every call with transport_error
// naming why it is disabled, never a silent fallback. Attach the hooks
// with reg.SetHooks(chain.AgentHooks()).
func (a *Assembly) NewRegistry(st *story.Story, opts agent.RegistryOptions) (*agent.Registry, error) {
	decls := map[string]*story.AgentPlugin{}
	var disabled []AgentStatus
	for alias, p := range st.AgentPlugins {
		if ag, ok := a.Agent(alias); ok && !ag.Enabled {
			disabled = append(disabled, ag)
			continue
		}
		decls[alias] = p
	}
	if opts.Personas == nil {
		opts.Personas = st.Agents
	}
	reg, err := agent.NewRegistryFromPlugins(decls, opts)
	if err != nil {
		return nil, err
	}
	for _, ag := range disabled {
		if err := reg.Register(ag.Alias, refused{alias: ag.Alias, reason: ag.Reason}); err != nil {
			_ = reg.Close()
			return nil, err
		}
	}
	return reg, nil
}

// refused answers for a disabled alias.
type refused struct{ alias, reason string }

func (r refused) Ask(context.Context, *agent.AskRequest) (*agent.AskResponse, error) {
	return nil, agent.Errorf(agent.KindTransportError, "%s is disabled in the plugin assembly (%s); see `kitsoki plugins`", r.alias, r.reason)
}

func (refused) Close() error { return nil }
