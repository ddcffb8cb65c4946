package compose

import (
	"kitsoki/pkg/agent"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

// Matrix is the plugin side of an eval: one hook chain shared by every
// call (a budget counts them all) and one registry per candidate.
type Matrix struct {
	plan  *Plan
	opts  DispatchOptions
	Chain *plugin.Chain
}

// NewMatrix starts the plan's hook chain for a matrix of registries.
// Close stops it (after the registries are closed).
func (p *Plan) NewMatrix(o DispatchOptions) *Matrix {
	return &Matrix{plan: p, opts: o, Chain: p.Assembly.NewChain()}
}

// Registry builds a registry serving only alias, declared as decl (nil =
// the story's), with the matrix's hooks; a disabled alias is refused
// (Plan.refuse). With a cassette, nothing is built or started.
func (m *Matrix) Registry(alias string, decl *story.AgentPlugin) (*agent.Registry, error) {
	if err := m.plan.refuse(alias); err != nil {
		return nil, err
	}
	st := m.plan.Loaded.Story
	one := *st // the story as far as the registry sees it: one alias
	one.AgentPlugins = map[string]*story.AgentPlugin{}
	o := m.opts
	cas := o.Cassette
	o.Cassette = nil
	if cas == nil {
		if decl == nil {
			decl = st.AgentPlugins[alias]
		}
		if decl != nil {
			one.AgentPlugins[alias] = decl
		}
	}
	reg, err := m.plan.Assembly.NewRegistry(&one, o.registryOptions(st, m.plan.redactor))
	if err != nil {
		return nil, err
	}
	if cas != nil {
		err = reg.Register(alias, cas.For(alias))
	} else {
		err = registerInProcess(reg, o.InProcess, func(a string) bool { return a == alias })
	}
	if err != nil {
		_ = reg.Close()
		return nil, err
	}
	reg.SetHooks(m.Chain.AgentHooks())
	return reg, nil
}

// Close stops the hook processes.
func (m *Matrix) Close() error { return m.Chain.Close() }
