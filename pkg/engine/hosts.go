package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// Agent verbs served through the agent layer.
var agentVerbs = map[string]bool{"ask": true, "decide": true, "extract": true, "task": true, "converse": true}

func isAgentHandler(h string) bool {
	v, ok := strings.CutPrefix(h, "host.agent.")
	return ok && agentVerbs[v]
}

// HostHooks intercepts host calls other than agent calls (the
// host/pre-call hook point; pkg/plugin's *Chain satisfies it): it may
// rewrite the args, or refuse the call with an error, which then takes the
// effect's on_error path like any failed host call.
type HostHooks interface {
	HostPreCall(ctx context.Context, handler string, args map[string]any, emit func(kind string, payload any) error) (map[string]any, error)
}

// hostAnswer is a host call's outcome: data and a domain error
// (story-runtime §2.3), plus what a background job needs.
type hostAnswer struct {
	data  map[string]any
	err   string
	delay time.Duration
	clar  *host.Clarification
	// cost is what the agent layer charged for the call: only its answers
	// count (a stub's or a host cassette's meta.cost_usd is data, as
	// upstream's flow rig never reaches its dispatcher; conformance
	// agent-cost-stub-not-folded).
	cost float64
}

// dispatch runs one host call (its host/pre-call hooks already ran in
// invoke). A handler registered under the exact name wins (flow stubs
// replace agent verbs too) after the host cassette, then the agent layer
// for host.agent.<verb>, then the registry's longest prefix.
// rc is the rendered agent call (nil for other handlers); promptErr is why
// its prompt could not be rendered, reported as the call's failure.
func (r *runner) dispatch(ctx context.Context, e *Effect, args map[string]any, rc *RenderedCall, promptErr error) (hostAnswer, string, error) {
	if replays(r.so.HostReplay, e.Invoke) {
		ans, id, err := r.replayHost(ctx, e, args)
		if !errors.Is(err, ErrReplayMiss) {
			return ans, id, err
		}
		// the real handler answers a miss (and may be recorded)
		c := r.replayCall(e, args)
		ans, id, err = r.dispatchLive(ctx, e, args, rc, promptErr)
		recorded(r.so.HostReplay, c, ans, err)
		return ans, id, err
	}
	return r.dispatchLive(ctx, e, args, rc, promptErr)
}

// dispatchLive is dispatch past the host cassette: the registry's handler
// or the agent layer.
func (r *runner) dispatchLive(ctx context.Context, e *Effect, args map[string]any, rc *RenderedCall, promptErr error) (hostAnswer, string, error) {
	h, _, op, found := r.hosts.Lookup(e.Invoke)
	if isAgentHandler(e.Invoke) && (!found || op != "") {
		if rc != nil && !r.so.NoAgentHandlers {
			if msg := agentArgsError(rc.Verb, rc.With); msg != "" {
				return hostAnswer{err: msg}, "", nil
			}
		}
		ans, id, err := r.callAgent(ctx, e, args, rc, promptErr)
		ans, err = agentDomain(ans, err)
		return ans, id, err
	}
	if found {
		return r.callHandler(ctx, h, e.Invoke, op, args)
	}
	return hostAnswer{}, "", fmt.Errorf("host: no handler registered for %q", e.Invoke)
}

// callHandler calls a registry handler in the foreground.
func (r *runner) callHandler(ctx context.Context, h host.Handler, name, op string, args map[string]any) (hostAnswer, string, error) {
	ans, err := callHandler(ctx, h, name, op, args, r.hostEnv())
	if ans.clar != nil { // only a background job can wait for an answer (flow-format.md §4.1)
		return hostAnswer{err: errForegroundClarification}, "", nil
	}
	return ans, "", err
}

// callHandler calls a registry handler with env, op added to the args
// when they have none; it touches no session (a background job runs it on
// its own goroutine).
func callHandler(ctx context.Context, h host.Handler, name, op string, args map[string]any, env host.Env) (hostAnswer, error) {
	if op != "" {
		if _, ok := args["op"]; !ok {
			args = shallowWith(args, "op", op)
		}
	}
	res, err := h.Call(ctx, &host.Call{Handler: name, Op: op, Args: args, Env: env})
	if err != nil { // a clarification comes first (conformance host-clarification-first)
		return hostAnswer{delay: res.Delay, clar: res.Clarification}, err
	}
	return hostAnswer{data: res.Data, err: res.Error, delay: res.Delay, clar: res.Clarification}, nil
}

// errForegroundClarification is upstream's text for a clarification asked
// outside a background job.
const errForegroundClarification = "host.RequestClarification: not running as a background job (no JobContext in ctx)"

// hostEnv is what a handler may read about the call's place in the run.
func (r *runner) hostEnv() host.Env {
	dir := r.m.Dir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return host.Env{SessionID: r.so.SessionID, Turn: r.turn, State: r.statePathForEvent(), World: r.world.Snapshot(), StoryDir: dir,
		WorkDir: r.so.WorkDir, Now: r.clock.Now,
		Services: &host.Services{Inbox: r.inbox, Jobs: r.jobs}}
}

// callAgent hands the rendered agent call (RenderAgentCall) to the
// AgentCaller.
func (r *runner) callAgent(ctx context.Context, e *Effect, args map[string]any, rc *RenderedCall, promptErr error) (hostAnswer, string, error) {
	if r.so.Agents == nil {
		return hostAnswer{}, "", errors.New("no agent layer configured for this run")
	}
	alias, err := r.agentAlias(e)
	if err != nil {
		return hostAnswer{}, "", err
	}
	if err := unregistered(r.so.Agents, e.Invoke); err != nil {
		return hostAnswer{}, "", err
	}
	if rc == nil {
		return hostAnswer{}, "", fmt.Errorf("%s: the call was not rendered", e.Invoke)
	}
	if promptErr != nil {
		return hostAnswer{}, "", promptFailed(e.Invoke, promptErr)
	}
	call := r.agentCall(e, alias, args, rc)
	// the agent layer writes its agent.call.* events to the sink itself: a
	// synthetic turn's events so far go first, and the turn then holds
	// nothing back (sendOrDrop)
	if err := r.sendOrDrop(false); err != nil {
		return hostAnswer{}, "", err
	}
	ans, err := r.so.Agents.CallAgent(ctx, call)
	if err != nil {
		err = aliasError(e, alias, err)
		// The summary names the call as the trace does: a cassette replay
		// derives its id from the episode, not from the live key.
		if id, used, ok := agentcall.FailedCall(err); ok && id != "" {
			r.noteAgent(id, used)
			return hostAnswer{}, id, err
		}
		r.noteAgent(call.CallID, alias)
		return hostAnswer{}, call.CallID, err
	}
	callID := cmp.Or(ans.CallID, call.CallID)
	if ans.Alias != "" {
		alias = ans.Alias
	}
	r.noteAgent(callID, alias)
	return hostAnswer{data: agentResult(call.Verb, ans), cost: agentCost(ans.Meta)}, callID, nil
}

// promptFailed is the failure of an agent call whose prompt could not be
// rendered (a prompt file missing or not parsing, a decide or task inline
// prompt not parsing): a domain error of the call, as upstream's real
// handler answers it (conformance agent-prompt-sources), so on_error and
// the view treat it as a failed answer, not a broken call.
func promptFailed(handler string, err error) error {
	return &AgentDomainError{Msg: handler + ": " + err.Error(), Err: err}
}

// agentCost is the cost an agent layer's answer reports (its meta.cost_usd,
// when positive).
func agentCost(meta map[string]any) float64 {
	if c, ok := meta["cost_usd"].(float64); ok && c > 0 {
		return c
	}
	return 0
}

// agentCall builds the agent call of a rendered invoke.
func (r *runner) agentCall(e *Effect, alias string, args map[string]any, rc *RenderedCall) AgentCall {
	verb := strings.TrimPrefix(e.Invoke, "host.agent.")
	persona, _ := args["agent"].(string)
	key := fmt.Sprintf("%d|%s", r.turn, r.cur.Path)
	seq := r.agentN[key]
	r.agentN[key] = seq + 1
	return AgentCall{
		Verb: verb, Alias: alias, Persona: persona, Model: r.m.PersonaModels[persona], Prompt: rc.Prompt, SchemaPath: rc.SchemaPath,
		With: args, World: r.world, SessionID: r.so.SessionID, Turn: r.turn,
		StatePath: r.cur.Path, CallID: agentcall.LiveID(r.m.AppID, r.turn, r.cur.Path, seq), EffectID: e.ID,
		Timeout: e.Timeout,
	}
}

// renderer returns the machine's prompt renderer (built by Compile; built
// here for a Machine assembled by hand).
func (m *Machine) renderer() *PromptRenderer {
	m.promptMu.Lock()
	defer m.promptMu.Unlock()
	if m.render == nil {
		m.render = newPromptRenderer(m.Dir, expr.NewPongoLoader(m.Dir, filepath.Join(m.Dir, "prompts")))
	}
	return m.render
}

// agentResult is what a host.agent.<verb> call returns to bind:
// {submission, submitted, exit_code: 0, ok: true, meta} (agent-contract
// §9.3), plus stdout (the answer as text) so that legacy `bind: {x: stdout}`
// keeps working for ask/converse, and, for a converse, answer (the text, or
// an object answer's answer member), as upstream's claude-path converse.
func agentResult(verb string, ans *AgentAnswer) map[string]any {
	if res := defaultPathResult(verb, ans); res != nil {
		return res
	}
	sub := ans.Value
	// submission and submitted share the value: binds deep-copy what they take.
	res := map[string]any{"submission": sub, "submitted": sub, "exit_code": 0, "ok": true}
	if ans.Meta != nil {
		res["meta"] = ans.Meta
	}
	switch t := sub.(type) {
	case string:
		res["stdout"] = t
		if verb == "converse" {
			res["answer"] = t // upstream's converse: {answer, session_id}
		}
	case map[string]any:
		for _, k := range []string{"stdout", "answer", "text", "reply"} {
			if s, ok := t[k].(string); ok {
				res["stdout"] = s
				break
			}
		}
		if verb == "converse" {
			if a, ok := t["answer"]; ok {
				res["answer"] = a
			}
		}
		if _, ok := res["stdout"]; !ok {
			res["stdout"] = string(ans.Submission)
		}
	default:
		if sub != nil {
			res["stdout"] = string(ans.Submission)
		}
	}
	return res
}

// rendererOf is the prompt renderer for an effect: its declaring story's
// (an imported child resolves its prompt includes against its own search
// path), else the machine's.
func (m *Machine) rendererOf(e *Effect) *PromptRenderer {
	if e != nil && e.render != nil {
		return e.render
	}
	return m.renderer()
}

// storyRenderer returns (building once) the renderer of a child story
// (Compile's: it makes m.renders).
func (m *Machine) storyRenderer(st *story.Story) *PromptRenderer {
	p, _ := cached(&m.promptMu, m.renders, st.Dir, func() (*PromptRenderer, error) { return newPromptRenderer(st.Dir, storyLoader(st)), nil })
	return p
}

func shallowWith(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	maps.Copy(out, m)
	out[k] = v
	return out
}

// defaultPathResult is the result of an ask, converse or decide answered on
// upstream's default verb path (AgentAnswer.Reply), as upstream's claude
// handlers build it: ask {stdout, exit_code: 0, ok: true}, with submitted
// only for an answer given through the submit tool (a text reply is never
// read as JSON nor checked against schema:), converse {answer,
// session_id}, decide {claude_session_id, exit_code: 0, ok: true,
// rationale (the reply text), submitted}; no meta (conformances
// ask-default-result, decide-default-validator). nil for any other call.
func defaultPathResult(verb string, ans *AgentAnswer) map[string]any {
	rp := ans.Reply
	if rp == nil {
		return nil
	}
	switch verb {
	case "ask":
		res := map[string]any{"stdout": rp.Text, "exit_code": 0, "ok": true}
		if rp.Submitted {
			res["submitted"] = ans.Value
		}
		return res
	case "converse":
		return map[string]any{"answer": rp.Text, "session_id": rp.SessionID}
	case "decide":
		return map[string]any{"claude_session_id": rp.SessionID, "exit_code": 0, "ok": true, "rationale": rp.Text, "submitted": ans.Value}
	}
	return nil
}
