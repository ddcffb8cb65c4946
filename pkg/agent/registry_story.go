package agent

import (
	"cmp"
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
	opts.AppID = cmp.Or(opts.AppID, st.App.ID)
	opts.StoryDir = cmp.Or(opts.StoryDir, st.Dir)
	if opts.Personas == nil {
		opts.Personas = st.Agents
	}
	return NewRegistryFromPlugins(st.AgentPlugins, opts)
}
