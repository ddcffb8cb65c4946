package agent

import (
	"errors"

	"kitsoki/pkg/story"
)

// NewRegistry builds the transports of every agent_plugins: declaration of
// st. builtin.inprocess aliases wait for RegisterInProcess; a plugin type
// with no builder (RegistryOptions.Builders can remove one) fails when the
// alias is first dispatched, not here.
func NewRegistry(st *story.Story, opts RegistryOptions) (*Registry, error) {
	if st == nil {
		return nil, errors.New("agent: NewRegistry: nil story")
	}
	if opts.AppID == "" {
		opts.AppID = st.App.ID
	}
	if opts.StoryDir == "" {
		opts.StoryDir = st.Dir
	}
	if opts.Personas == nil {
		opts.Personas = st.Agents
	}
	return NewRegistryFromPlugins(st.AgentPlugins, opts)
}
