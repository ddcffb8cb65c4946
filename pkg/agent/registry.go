package agent

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kitsoki/internal/closeonce"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// DefaultTimeout is the hard deadline of an agent call when neither the
// call nor the registry sets one.
const DefaultTimeout = 10 * time.Minute

// RegistryOptions configures NewRegistry.
type RegistryOptions struct {
	// AppID feeds call-id derivation; NewRegistry defaults it to the story's
	// app id.
	AppID string
	// StoryDir roots schema loading (<StoryDir>/schemas); NewRegistry
	// defaults it to the story's directory.
	StoryDir string
	// Builders add or replace transport builders by plugin type, e.g.
	// story.PluginLocalLLM. They win over the built-in ones.
	Builders map[string]Builder
	// Cassette, when set, answers every declared alias from this cassette
	// (kitsoki run --cassette): no plugin is built, started or contacted.
	Cassette *Cassette
	// Sink receives the events of every call (Call.Sink overrides it). Nil
	// discards them.
	Sink Sink
	// Logger is the debug log; nil discards. It never receives a secret.
	Logger *slog.Logger
	// Timeout is the default hard deadline of a call (DefaultTimeout if 0).
	Timeout time.Duration
	// Schemas compiles with.schema paths; nil means schema.NewCompiler(StoryDir).
	Schemas *schema.Compiler
	// Personas is the story's persona table (agents:): a call's Persona
	// selects the system prompt Dispatch records on agent.call.start and
	// hands to transports that take one (builtin.claude_cli). NewRegistry
	// sets it from the story.
	Personas map[string]*story.Persona
	// ClaudeSubmit is the command that starts kitsoki's submit MCP server
	// (kitsoki mcp submit) for builtin.claude_cli decide calls; nil keeps
	// the plain-text answer path only (see claude_submit.go).
	ClaudeSubmit []string
	// Redactor masks the run's secrets (nil: one built from the
	// declarations the registry serves). pkg/compose passes the run's one
	// redactor, which the plugin assembly's hooks and host providers share.
	Redactor *Redactor
}

// Registry resolves agent aliases to transports and dispatches calls. One
// registry serves one session; it is safe for concurrent Dispatch calls.
type Registry struct {
	appID    string
	decls    map[string]*story.AgentPlugin
	sink     Sink
	log      *slog.Logger
	timeout  time.Duration
	schemas  *schema.Compiler
	redact   redactor
	personas map[string]*story.Persona // RegistryOptions.Personas (read-only)
	// costFloor is jsoncost.Floor for a submission's check (0: that
	// floor), which tests lower.
	costFloor int64

	mu         sync.RWMutex
	transports map[string]Transport
	pending    map[string]error // alias -> why it has no transport yet
	closed     bool

	seqMu sync.Mutex
	seqs  map[string]int // "<session>\x00<turn>\x00<state>" -> next seq

	hooks atomic.Value // hooksBox; SetHooks (hooks.go)

	lateGraceOverride time.Duration // lateWait (request_log.go); 0 = lateGrace
}

// NewRegistryFromPlugins is NewRegistry for a bare alias -> declaration map
// (tests, tools that have no loaded story). agent.claude is injected when
// missing, as the loader does.
func NewRegistryFromPlugins(plugins map[string]*story.AgentPlugin, opts RegistryOptions) (*Registry, error) {
	decls := make(map[string]*story.AgentPlugin, len(plugins)+1)
	for alias, p := range plugins {
		if p == nil {
			return nil, fmt.Errorf("agent_plugins.%s: nil declaration", alias)
		}
		decls[alias] = p
	}
	if _, ok := decls[story.DefaultAgentAlias]; !ok {
		decls[story.DefaultAgentAlias] = &story.AgentPlugin{Alias: story.DefaultAgentAlias, Plugin: story.PluginClaudeCLI, Injected: true}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r := &Registry{
		appID:      opts.AppID,
		decls:      decls,
		sink:       opts.Sink,
		log:        log,
		timeout:    opts.Timeout,
		schemas:    opts.Schemas,
		personas:   opts.Personas,
		redact:     opts.Redactor.or(decls),
		transports: map[string]Transport{},
		pending:    map[string]error{},
		seqs:       map[string]int{},
	}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	if r.schemas == nil {
		r.schemas = schema.NewCompiler(opts.StoryDir)
	}
	builders := defaultBuilders()
	maps.Copy(builders, opts.Builders)
	bc := BuildContext{StoryDir: opts.StoryDir, Logger: log, Redact: r.redact.String, ClaudeSubmit: opts.ClaudeSubmit, cut: r.redact.safeCut}
	var errs []error
	for _, alias := range slices.Sorted(maps.Keys(decls)) {
		p := decls[alias]
		switch {
		case opts.Cassette != nil:
			r.transports[alias] = opts.Cassette.For(alias)
		case p.Plugin == story.PluginInProcess:
			r.transports[alias] = unregisteredInProcess{alias: alias}
		default:
			b := builders[p.Plugin]
			if b == nil {
				r.pending[alias] = Errorf(KindTransportError,
					"agent_plugins.%s: plugin type %q is not available in this build; %s", alias, p.Plugin, unwiredHint(p.Plugin))
				continue
			}
			t, err := b(p, bc)
			if err != nil {
				msg := r.redact.String(err.Error())
				if !strings.HasPrefix(msg, "agent_plugins."+alias+":") {
					msg = "agent_plugins." + alias + ": " + msg
				}
				errs = append(errs, errors.New(msg))
				continue
			}
			if t == nil {
				errs = append(errs, fmt.Errorf("agent_plugins.%s: builder for %q returned no transport", alias, p.Plugin))
				continue
			}
			r.transports[alias] = t
		}
	}
	if len(errs) > 0 {
		_ = r.Close()
		return nil, errors.Join(errs...)
	}
	return r, nil
}

// RegisterInProcess serves alias with a compiled-in Go agent. It is how a
// builtin.inprocess declaration gets its implementation; it may also replace
// any other alias's transport (tests stub agent.claude this way), closing the
// transport it replaces.
func (r *Registry) RegisterInProcess(alias string, a Agent) error {
	if a == nil {
		return fmt.Errorf("agent: RegisterInProcess(%q): nil agent", alias)
	}
	return r.Register(alias, NewInProcess(alias, a))
}

// Register serves alias with t (conformance tests, cassette wiring). The
// previous transport of alias, if any, is closed. Undeclared aliases are
// accepted and become dispatchable.
func (r *Registry) Register(alias string, t Transport) error {
	if alias == "" {
		return errors.New("agent: Register: empty alias; aliases look like agent.<name>")
	}
	if t == nil {
		return fmt.Errorf("agent: Register(%q): nil transport", alias)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return fmt.Errorf("agent: Register(%q): registry is closed", alias)
	}
	old := r.transports[alias]
	r.transports[alias] = t
	delete(r.pending, alias)
	r.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

// Resolve returns the canonical alias and transport for an effect's agent:
// value. "" means agent.claude. An unknown alias is an error: there is no
// silent fallback to agent.claude.
func (r *Registry) Resolve(alias string) (string, Transport, error) {
	if alias == "" {
		alias = story.DefaultAgentAlias
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return alias, nil, fmt.Errorf("agent: %s: registry is closed", alias)
	}
	if t, ok := r.transports[alias]; ok {
		return alias, t, nil
	}
	if err, ok := r.pending[alias]; ok {
		return alias, nil, err
	}
	return alias, nil, fmt.Errorf("agent: no agent plugin %q is declared; declare it under agent_plugins: or use one of: %s",
		alias, strings.Join(r.aliasesLocked(), ", "))
}

// Aliases lists every alias the registry knows, sorted.
func (r *Registry) Aliases() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.aliasesLocked()
}

func (r *Registry) aliasesLocked() []string {
	// An alias is in one of the two: Register takes it out of pending.
	out := slices.AppendSeq(slices.Collect(maps.Keys(r.transports)), maps.Keys(r.pending))
	slices.Sort(out)
	return out
}

// Unregistered lists the builtin.inprocess aliases still waiting for
// RegisterInProcess, sorted: a caller (kitsoki run) can refuse to start a
// story whose in-process agents can never be provided.
func (r *Registry) Unregistered() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for alias, t := range r.transports {
		if _, ok := t.(unregisteredInProcess); ok {
			out = append(out, alias)
		}
	}
	slices.Sort(out)
	return out
}

// Redact masks every resolved env:/headers: secret of every declaration in s.
// Callers that print plugin-derived text (cmd, engine) use it too.
func (r *Registry) Redact(s string) string { return r.redact.String(s) }

// AppID returns the app id call ids are derived from.
func (r *Registry) AppID() string { return r.appID }

// Close closes every transport once; later calls return nil.
func (r *Registry) Close() error {
	var ts map[string]Transport
	if !closeonce.Mark(&r.mu, &r.closed, func() { ts, r.transports = r.transports, map[string]Transport{} }) {
		return nil
	}
	var errs []error
	for _, alias := range slices.Sorted(maps.Keys(ts)) {
		if err := ts[alias].Close(); err != nil {
			errs = append(errs, fmt.Errorf("agent: close %s: %s", alias, r.redact.String(err.Error())))
		}
	}
	return errors.Join(errs...)
}

// nextSeq returns the per-(session, turn, state) counter used in live call ids.
func (r *Registry) nextSeq(session string, turn int64, state string) int {
	k := session + "\x00" + strconv.FormatInt(turn, 10) + "\x00" + state
	r.seqMu.Lock()
	n := r.seqs[k]
	r.seqs[k] = n + 1
	r.seqMu.Unlock()
	return n
}
