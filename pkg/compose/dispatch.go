package compose

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// ResolveOptions tune ResolveWith.
type ResolveOptions struct {
	// Profile is --profile ("" = .kitsoki/plugins.yaml found upward from
	// the story).
	Profile string
	// Getenv resolves the env var names of the profile's redact config
	// (os.Getenv if nil).
	Getenv func(string) string
	// Sandbox disables every external plugin: no hook or host-provider
	// process is started (kitsoki test --sandbox).
	Sandbox bool
	// MinimalEnv starts hook and host-provider processes with the minimal
	// environment, without kitsoki's secrets (kitsoki test).
	MinimalEnv bool
	// Hosts are handlers an embedder adds by name to the host registries
	// built from the plan ([Plan.AddHosts]: kitsoki run's, a flow
	// fixture's host_bindings built-ins), over the built-ins. kitsoki's
	// own commands add none; cmd's tests add a handler that panics.
	Hosts map[string]host.Handler
}

// ResolveWith is Resolve with every option: the one place a story's plugin
// assembly is resolved, for run, test, eval run and mcp serve alike. A
// malformed profile is a *plugin.ProfileError.
func ResolveWith(ld *Loaded, o ResolveOptions) (*Plan, error) {
	st := ld.Story
	// The run's one redactor: the agent registry, the hook chain and the
	// host providers all mask with it (every alias's secrets, enabled or
	// not: a disabled alias's ${VAR} is still in kitsoki's environment).
	red := agent.NewRedactor(st.AgentPlugins)
	asm, err := plugin.Assemble(plugin.Options{StoryDir: st.Dir, ProfilePath: o.Profile, Story: st, Getenv: o.Getenv,
		Sandbox: o.Sandbox, MinimalEnv: o.MinimalEnv, Redact: red.Mask()})
	if err != nil {
		return nil, err
	}
	return &Plan{Loaded: ld, Assembly: asm, redactor: red, hosts: o.Hosts}, nil
}

// DispatchOptions are BuildOptions plus what callers without an engine
// run (eval run, mcp serve) or with compiled-in agents add.
type DispatchOptions struct {
	BuildOptions
	// AgentSink, when set, receives the agent and hook events instead of
	// Sink.
	AgentSink agent.Sink
	// Builders add or replace transport builders by plugin type, over the
	// built-in ones and builtin.local_llm (localllm.New).
	Builders map[string]agent.Builder
	// Logger is the registry's debug log; nil discards.
	Logger *slog.Logger
	// Schemas compiles with.schema paths (nil = a compiler of the story's
	// directory, within the story's pattern budget).
	Schemas *schema.Compiler
	// InProcess serves builtin.inprocess aliases (and may replace any
	// alias) with compiled-in agents.
	InProcess map[string]agent.Agent
}

// engineSink is BuildOptions.Sink, or a sink that drops everything.
func (o DispatchOptions) engineSink() engine.Sink {
	return cmp.Or(o.Sink, engine.Sink(engine.SinkFunc(func(engine.Event) error { return nil })))
}

// registryOptions are the agent.RegistryOptions of every registry a plan
// builds, masking with the plan's redactor.
func (o DispatchOptions) registryOptions(st *story.Story, red *agent.Redactor) agent.RegistryOptions {
	return agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir, Cassette: o.Cassette, Sink: cmp.Or(o.AgentSink, AgentSink(o.engineSink())),
		ClaudeSubmit: o.ClaudeSubmit, Timeout: o.CallTimeout, Builders: o.builders(), Logger: o.Logger, Schemas: o.schemas(st), Redactor: red}
}

// schemas is o.Schemas, or a compiler of st's directory within st's
// pattern budget.
func (o DispatchOptions) schemas(st *story.Story) *schema.Compiler {
	if o.Schemas != nil {
		return o.Schemas
	}
	return schema.NewStoryCompiler(st.Dir, st.Patterns())
}

// builders are the transport builders pkg/agent does not hold itself
// (builtin.local_llm, from pkg/agent/localllm), then o.Builders over them.
func (o DispatchOptions) builders() map[string]agent.Builder {
	b := map[string]agent.Builder{story.PluginLocalLLM: localllm.New}
	maps.Copy(b, o.Builders)
	return b
}

// BuildWith starts the hook chain and builds the agent registry of every
// enabled alias, with the chain's agent hooks; both mask with the plan's
// redactor.
func (p *Plan) BuildWith(o DispatchOptions) (*Runtime, error) {
	st := p.Loaded.Story
	chain := p.Assembly.NewChain()
	reg, err := p.Assembly.NewRegistry(st, o.registryOptions(st, p.redactor))
	if err != nil {
		_ = chain.Close()
		return nil, err
	}
	// A disabled alias keeps its refusal: a compiled-in agent does not
	// bring it back.
	if err := registerInProcess(reg, o.InProcess, func(a string) bool { return p.refuse(a) == nil }); err != nil {
		_ = reg.Close()
		_ = chain.Close()
		return nil, err
	}
	reg.SetHooks(chain.AgentHooks())
	return &Runtime{Chain: chain, Agents: reg, Sink: o.engineSink()}, nil
}

// refuse is the operator's refusal of alias, worded as a run's dispatch
// words it, when the assembly disables it; nil otherwise. eval run refuses
// up front rather than at dispatch.
func (p *Plan) refuse(alias string) error {
	if ag, ok := p.Assembly.Agent(alias); ok && !ag.Enabled {
		return fmt.Errorf("%s is disabled in the plugin assembly (%s); see `kitsoki plugins`", alias, ag.Reason)
	}
	return nil
}

// registerInProcess serves the aliases of agents that keep allows with
// their compiled-in agents.
func registerInProcess(reg *agent.Registry, agents map[string]agent.Agent, keep func(string) bool) error {
	for alias, a := range agents {
		if !keep(alias) {
			continue
		}
		if err := reg.RegisterInProcess(alias, a); err != nil {
			return err
		}
	}
	return nil
}
