package flowtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/agentcall"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
)

// registerBuiltins registers the real built-ins of a host_bindings
// fixture as the operator allows: under --sandbox only host.SandboxSafe
// ones run, and one the profile disables answers with its refusal.
func (fr *fixtureRun) registerBuiltins(reg *host.Registry) {
	o := host.Options{Starlark: fr.star}
	if fr.r.opts.Sandbox {
		o = host.SandboxOptions(o)
	}
	builtins := host.Builtins(o)
	fr.plan.AddHosts(builtins) // an embedder's own, refused or disabled as a built-in is
	for _, name := range builtins.Names() {
		h, _, _, _ := builtins.Lookup(name)
		info, _ := builtins.Info(name)
		if fr.r.opts.Sandbox && !host.SandboxSafe(name) {
			h = fr.sbx.refusal(name)
		} else if d, off := fr.plan.Assembly.DisabledHost(name); off {
			h = d
		}
		reg.RegisterInfo(name, h, info)
	}
	registerChatStoreAbsent(reg)
	registerIDEAbsent(reg)
}

// realAgents is the agent layer of a host_bindings fixture without a
// host_cassette: upstream's real handlers answer every host.agent.* verb
// through the story's agents, as kitsoki run builds them (the real
// claude on PATH; see testdata/conformance/host-bindings-real-agent).
// Under --sandbox no agent starts: each call is refused and recorded.
func (fr *fixtureRun) realAgents(sink engine.Sink) (engine.AgentCaller, func(), error) {
	if fr.r.opts.Sandbox {
		return engine.AgentCallerFunc(func(ctx context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
			_, err := fr.sbx.refusal("host.agent."+c.Verb).Call(ctx, nil)
			return nil, err
		}), func() {}, nil
	}
	rt, err := fr.plan.Build(compose.BuildOptions{Sink: sink})
	if err != nil {
		return nil, nil, err
	}
	caller := rt.Caller()
	return engine.AgentCallerFunc(func(ctx context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
		if msg := extractUnresolved(c); msg != "" {
			return nil, &engine.AgentDomainError{Msg: msg, Data: map[string]any{"resolved_by": "no_match", "submitted": nil}, Err: errors.New(msg)}
		}
		ans, err := caller.CallAgent(ctx, c)
		if errors.Is(err, agent.ErrNoClaude) {
			err = noClaudeError(c.Verb, err)
		}
		return ans, err
	}), func() { rt.Close() }, nil
}

// extractUnresolved is how upstream's real extract handler fails before
// any agent starts (conformance extract-no-resolver): a with.prompt
// leaves its tiers with nothing to match ("no resolver matched"), and with
// neither a prompt nor a with.agent persona no tier is declared; "" when
// the call goes on to the agent (its LLM tier: a persona and no prompt).
func extractUnresolved(c engine.AgentCall) string {
	if c.Verb != "extract" {
		return ""
	}
	if p, _ := c.With["prompt"].(string); p != "" {
		return "host.agent.extract: no resolver matched"
	}
	if c.Persona == "" {
		return "host.agent.extract: no resolvers declared and no match"
	}
	return ""
}

// noClaudeError is noClaude's failure as upstream's real handler gives
// it: a domain error for every verb (the view after it is the rig's, from
// the replayed world: conformance no-claude-domain-view), with data for
// converse (a fresh session_id) and extract (resolved_by no_match), none
// for ask, decide and task.
func noClaudeError(verb string, err error) error {
	n := noClaude{verb: verb, err: err}
	var data map[string]any
	switch verb {
	case "converse":
		data = map[string]any{"session_id": agentcall.RandomUUID()}
	case "extract":
		data = map[string]any{"resolved_by": "no_match", "submitted": nil}
	}
	return &engine.AgentDomainError{Msg: n.Error(), Data: data, Err: n}
}

// noClaude is a real agent call that found no claude on PATH, in the words
// of upstream's real handlers (conformance host-bindings-no-claude): the
// converse runner's for every verb but extract, whose tiers end in "no
// resolver matched". It keeps the failed call's id and alias
// (agentcall.Failure) but not the agent layer's error kind, which
// upstream's host_error does not carry.
type noClaude struct {
	verb string
	err  error
}

func (n noClaude) Error() string {
	if n.verb == "extract" {
		return "host.agent.extract: no resolver matched"
	}
	return "host.agent.converse: `claude` binary not found on PATH; install Claude Code from https://claude.ai/download"
}

func (n noClaude) FailedCall() (callID, alias string) {
	callID, alias, _ = agentcall.FailedCall(n.err)
	return callID, alias
}

// sandboxLog records the real handlers a fixture called under --sandbox
// (safe for concurrent use).
type sandboxLog struct {
	mu    sync.Mutex
	names []string
}

// refusal stands in for name under --sandbox: it records the call and fails it.
func (l *sandboxLog) refusal(name string) host.Handler {
	return host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		l.mu.Lock()
		if !slices.Contains(l.names, name) {
			l.names = append(l.names, name)
		}
		l.mu.Unlock()
		return host.Result{}, fmt.Errorf("%s: not run under --sandbox (the real handler would start a process)", name)
	})
}

// sandboxVerdict fails the fixture when it called a real handler --sandbox
// refused: the message names the handler, the fixture and the flag.
func (fr *fixtureRun) sandboxVerdict() {
	fr.sbx.mu.Lock()
	names := slices.Clone(fr.sbx.names)
	fr.sbx.mu.Unlock()
	if len(names) == 0 {
		return
	}
	fr.res.Failures = append(fr.res.Failures, Failure{Turn: -1, Pos: fr.fx.at("host_bindings"), Message: fmt.Sprintf(
		"%s: fixture %s needs the real handler (host_bindings), which kitsoki test --sandbox (KITSOKI_SANDBOX) does not run; stub it under host_handlers, or run this fixture without --sandbox on trusted code",
		strings.Join(names, ", "), fr.fx.Name())})
	fr.res.Flow.Passed = false
}

// chatOps are upstream's built-in chat handlers (story-runtime §2.8),
// which its flow runner answers with a domain error, having no chat store
// (conformance chat-store-absent, chat-store-absent-more).
var chatOps = []string{"host.chat.resolve", "host.chat.list", "host.chat.transcript", "host.chat.fork", "host.chat.archive",
	"host.chat.create", "host.chat.rename", "host.chat.suggest_title", "host.chat.resolve_ref", "host.chat.drive"}

// registerChatStoreAbsent registers upstream's answer for each chat
// handler (a fixture's stubs, registered later, replace it).
func registerChatStoreAbsent(reg *host.Registry) {
	for _, name := range chatOps {
		msg := name + ": no chat store wired"
		reg.Register(name, host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
			return host.Result{Error: msg}, nil
		}))
	}
}
