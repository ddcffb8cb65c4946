package compose

import (
	"slices"
	"time"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
	"kitsoki/pkg/view"
)

// LoadOptions tune Load.
type LoadOptions struct {
	Story story.Options
	// Compile tunes the engine's compile (a host cassette whose handlers it
	// accepts, late handler checks for the flow rig).
	Compile engine.CompileOptions
	// NoCompile loads and checks only (call Loaded.Compile later).
	NoCompile bool
	// Strict refuses a story with any error diagnostic, lint-only ones
	// included (mcp serve: there is no run to warn before).
	Strict bool
	// Runnable checks only what can refuse the story (lint.LoadRunnable),
	// for a command that prints none of its lint findings (kitsoki test):
	// the refusals are the same, LintWarnings and Diagnostics lack the
	// findings of lint-only rules. Strict ignores it.
	Runnable bool
}

// Loaded is a story loaded and compiled.
type Loaded struct {
	Path        string
	Story       *story.Story
	Diagnostics []diag.Diagnostic // the loader's warnings
	// Machine is nil when the engine refuses the story (CompileErr says
	// why, by name and position: an *engine.CompileError).
	Machine    *engine.Machine
	CompileErr error
	// LintWarnings are the errors kitsoki validate reports that do not stop
	// a run (lint-only rules), as warnings: print them before running.
	LintWarnings []diag.Diagnostic
	// Views renders states' views (pkg/view); nil when the story does not compile.
	Views ViewRenderer
}

// ViewRenderer renders a state's view (the engine's seam for pkg/view).
type ViewRenderer interface {
	RenderView(statePath string, world map[string]any, extra map[string]any) (string, error)
}

// LoadError is a story that does not load: its errors, and the story as
// far as it loaded, so a watcher knows which files to watch.
type LoadError struct {
	Path        string
	Story       *story.Story
	Diagnostics []diag.Diagnostic
}

func (e *LoadError) Error() string {
	return e.Path + ": the story does not load"
}

// Load reads, checks and (unless o.NoCompile) compiles the story at path.
// A story with load errors is a *LoadError; one the engine refuses has
// CompileErr set. Unless o.Strict, errors of lint-only rules are kept as
// LintWarnings and the run goes ahead.
func Load(path string, o LoadOptions) (*Loaded, error) {
	load := lint.Load
	if o.Runnable && !o.Strict {
		load = lint.LoadRunnable
	}
	st, ds := load(path, o.Story)
	refused := func(d diag.Diagnostic) bool {
		return d.Severity == diag.Error && (o.Strict || st == nil || lint.Blocking(d)) ||
			o.Strict && lint.LoaderAccepted(d)
	}
	if st == nil || slices.ContainsFunc(ds, refused) {
		errs := slices.DeleteFunc(slices.Clone(ds), func(d diag.Diagnostic) bool { return !refused(d) })
		return nil, &LoadError{Path: path, Story: st, Diagnostics: errs}
	}
	ld := &Loaded{Path: path, Story: st, Diagnostics: ds}
	for _, d := range ds {
		if d.Severity == diag.Error || lint.LoaderAccepted(d) { // lint-only: not Blocking
			d.Severity = diag.Warning
			ld.LintWarnings = append(ld.LintWarnings, d)
		}
	}
	if !o.NoCompile {
		ld.Compile(o.Compile)
	}
	return ld, nil
}

// Compile builds the machine; a refusal is CompileErr.
func (ld *Loaded) Compile(o engine.CompileOptions) {
	ld.Machine, ld.CompileErr = engine.Compile(ld.Story, o)
	if ld.CompileErr != nil {
		ld.Machine = nil
	}
	if ld.Machine != nil && ld.Views == nil {
		// The views of the folded machine, each state's against its own
		// story's views/ (pkg/view).
		if ld.Machine.Folded != nil { // the engine's fold (imports, phases expanded)
			ld.Views = view.FromFolded(ld.Machine.Folded)
		} else if v, err := view.ForStory(ld.Story); err == nil {
			ld.Views = v
		}
	}
}

// Plan is a story's resolved plugin assembly (profile, hooks, enabled
// aliases), before anything is started or written.
type Plan struct {
	Loaded   *Loaded
	Assembly *plugin.Assembly
	// redactor is the run's one redactor (the story's agent secrets): the
	// assembly's hooks and host providers and every registry the plan
	// builds mask with it.
	redactor *agent.Redactor
	// hosts are ResolveOptions.Hosts.
	hosts map[string]host.Handler
}

// AddHosts registers the plan's own host handlers ([ResolveOptions.Hosts])
// in reg, replacing a handler of the same name.
func (p *Plan) AddHosts(reg *host.Registry) {
	for name, h := range p.hosts {
		reg.Register(name, h)
	}
}

// Resolve resolves the plugin assembly of a loaded story (profilePath is
// --profile; "" = .kitsoki/plugins.yaml found upward from the story).
func Resolve(ld *Loaded, profilePath string) (*Plan, error) {
	return ResolveWith(ld, ResolveOptions{Profile: profilePath})
}

// Warnings are the assembly's findings (printed before a run).
func (p *Plan) Warnings() []diag.Diagnostic { return p.Assembly.Diagnostics() }

// BuildOptions tune Build.
type BuildOptions struct {
	// Cassette answers every agent alias (no plugin is started).
	Cassette *agent.Cassette
	// Sink receives every event (agent events included); nil drops them.
	Sink engine.Sink
	// ClaudeSubmit is the command of kitsoki's submit MCP server.
	ClaudeSubmit []string
	// CallTimeout is the hard timeout of an agent call without its own
	// timeout: (--call-timeout; 0 = the registry's default).
	CallTimeout time.Duration
}

// Runtime is the assembled plugin side of a run: the hook chain and the
// agent registry. Close stops everything it started.
type Runtime struct {
	Chain  *plugin.Chain
	Agents *agent.Registry
	Sink   engine.Sink
}

// Build starts the hook chain and builds the agent registry with the
// chain's agent hooks. A registry error is returned as is.
func (p *Plan) Build(o BuildOptions) (*Runtime, error) {
	return p.BuildWith(DispatchOptions{BuildOptions: o})
}

// Caller is the engine's agent layer over the registry.
func (rt *Runtime) Caller() engine.AgentCaller { return RegistryCaller(rt.Agents, rt.Sink) }

// Close stops agent plugins, then hook processes; the registry's error
// comes first (redact it with Agents.Redact before printing).
func (rt *Runtime) Close() (regErr, chainErr error) {
	return rt.Agents.Close(), rt.Chain.Close()
}
