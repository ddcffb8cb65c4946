package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story/expr"
)

// Agent verbs served through the agent layer.
var agentVerbs = map[string]bool{"ask": true, "decide": true, "extract": true, "task": true, "converse": true}

func isAgentHandler(h string) bool {
	v, ok := strings.CutPrefix(h, "host.agent.")
	return ok && agentVerbs[v]
}

// builtinHandler reports whether the engine executes h itself.
func builtinHandler(h string) bool { return h == "host.run" || isAgentHandler(h) }

// dispatch runs one host call and returns its result data.
func (r *runner) dispatch(ctx context.Context, e *Effect, args map[string]any) (map[string]any, string, error) {
	if hc := r.opts.HostCassette; hc != nil && hc.Handles(e.Invoke) {
		return hc.play(ctx, r, e, args)
	}
	switch {
	case e.Invoke == "host.run":
		res, err := hostRun(ctx, args)
		return res, "", err
	case isAgentHandler(e.Invoke):
		return r.callAgent(ctx, e, args)
	}
	return nil, "", fmt.Errorf("no handler for %s (answer it with --host-cassette FILE)", e.Invoke)
}

// callAgent builds the agent call (prompt rendered with pongo2 against
// args and world) and hands it to the AgentCaller.
func (r *runner) callAgent(ctx context.Context, e *Effect, args map[string]any) (map[string]any, string, error) {
	if r.opts.Agents == nil {
		return nil, "", errors.New("no agent layer configured for this run")
	}
	verb := strings.TrimPrefix(e.Invoke, "host.agent.")
	alias := e.Agent
	if alias == "" {
		alias = "agent.claude"
	}
	persona, _ := args["agent"].(string)
	promptSrc, tmplArgs, schemaPath := agentSources(verb, args)
	prompt, err := r.renderPrompt(promptSrc, tmplArgs)
	if err != nil {
		return nil, "", fmt.Errorf("%s: prompt: %w", e.Invoke, err)
	}
	key := fmt.Sprintf("%d|%s", r.turn, r.cur.Path)
	seq := r.agentN[key]
	r.agentN[key] = seq + 1
	call := AgentCall{
		Verb: verb, Alias: alias, Persona: persona, Model: r.m.PersonaModels[persona], Prompt: prompt, SchemaPath: schemaPath,
		With: args, World: r.world, SessionID: r.opts.SessionID, Turn: r.turn,
		StatePath: r.cur.Path, CallID: agent.LiveCallID(r.m.AppID, r.turn, r.cur.Path, seq), EffectID: e.ID,
	}
	ans, err := r.opts.Agents.CallAgent(ctx, call)
	if err != nil {
		return nil, call.CallID, err
	}
	callID := ans.CallID
	if callID == "" {
		callID = call.CallID
	}
	return agentResult(verb, ans), callID, nil
}

// agentSources picks the prompt source, the template args and the schema
// path of a verb's with: block (reference agent-contract §12).
func agentSources(verb string, args map[string]any) (prompt string, tmplArgs any, schema string) {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	ctxBlock, _ := args["context"].(map[string]any)
	acc, _ := args["acceptance"].(map[string]any)
	prompt = str(args, "prompt")
	if prompt == "" {
		prompt = str(args, "prompt_path")
	}
	tmplArgs = args["args"]
	schema = str(args, "schema")
	switch verb {
	case "task":
		if ctxBlock != nil {
			if p := str(ctxBlock, "prompt"); p != "" && prompt == "" {
				prompt = p
			}
			if p := str(ctxBlock, "prompt_path"); p != "" && prompt == "" {
				prompt = p
			}
			if a, ok := ctxBlock["args"]; ok && tmplArgs == nil {
				tmplArgs = a
			}
			if s := str(ctxBlock, "schema"); s != "" && schema == "" {
				schema = s
			}
		}
		if acc != nil && schema == "" {
			schema = str(acc, "schema")
		}
	case "converse":
		if q := str(args, "question"); q != "" && prompt == "" {
			prompt = q
		}
	case "extract":
		if in := str(args, "input"); in != "" && prompt == "" {
			prompt = in
		}
	}
	if tmplArgs == nil {
		tmplArgs = map[string]any{}
	}
	return prompt, tmplArgs, schema
}

// renderPrompt renders a prompt file (a path that exists under the story
// dir) or an inline pongo2 prompt against args and world.
func (r *runner) renderPrompt(src string, args any) (string, error) {
	if src == "" {
		return "", nil
	}
	env := r.env(r.slots, map[string]any{"args": args})
	if !strings.ContainsAny(src, "\n{") && r.m.Dir != "" {
		p := src
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.m.Dir, src)
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			t, err := r.m.promptFile(p)
			if err != nil {
				return "", fmt.Errorf("%s: %w", src, err)
			}
			return t.Render(env)
		}
	}
	t, err := r.m.inlinePrompt(src)
	if err != nil {
		return "", err
	}
	return t.render(env)
}

// inlinePrompt compiles (once) an inline prompt template.
func (m *Machine) inlinePrompt(src string) (*text, error) {
	m.promptMu.Lock()
	defer m.promptMu.Unlock()
	if t, ok := m.inline[src]; ok {
		return t, nil
	}
	t, err := compileText(m.pongo, src)
	if err != nil {
		return nil, err
	}
	if m.inline == nil {
		m.inline = map[string]*text{}
	}
	m.inline[src] = t
	return t, nil
}

// promptFile compiles (once) a prompt file with the story's pongo2 loader.
func (m *Machine) promptFile(path string) (*expr.Pongo, error) {
	m.promptMu.Lock()
	defer m.promptMu.Unlock()
	if p, ok := m.prompts[path]; ok {
		return p, nil
	}
	if m.pongo == nil {
		m.pongo = expr.NewPongoLoader(m.Dir, filepath.Join(m.Dir, "prompts"))
	}
	p, err := m.pongo.CompileFile(path)
	if err != nil {
		return nil, err
	}
	if m.prompts == nil {
		m.prompts = map[string]*expr.Pongo{}
	}
	m.prompts[path] = p
	return p, nil
}

// agentResult is what a host.agent.<verb> call returns to bind:
// {submission, submitted, exit_code: 0, ok: true, meta} (agent-contract
// §9.3), plus stdout (the answer as text) so that legacy `bind: {x: stdout}`
// keeps working for ask/converse.
func agentResult(verb string, ans *AgentAnswer) map[string]any {
	var sub any
	if len(ans.Submission) > 0 {
		v, err := decodeJSON(ans.Submission)
		if err != nil {
			v = string(ans.Submission)
		}
		sub = v
	}
	// submission and submitted share the value: binds deep-copy what they take.
	res := map[string]any{"submission": sub, "submitted": sub, "exit_code": 0, "ok": true}
	if ans.Meta != nil {
		res["meta"] = ans.Meta
	}
	switch t := sub.(type) {
	case string:
		res["stdout"] = t
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

// promptKeys are with: members rendered by pongo2 against args at dispatch
// (the agent prompt), not by the {{ }} value-template engine.
var promptKeys = []string{"prompt", "question"}

// splitPrompts removes the pongo2 prompt strings from a with: tree (top
// level and context:) and returns a function putting them back.
func splitPrompts(with any) (rest any, restore func(any) any) {
	m, ok := with.(map[string]any)
	if !ok {
		return with, func(v any) any { return v }
	}
	type saved struct {
		inCtx bool
		key   string
		val   any
	}
	var keep []saved
	cp := make(map[string]any, len(m))
	for k, v := range m {
		cp[k] = v
	}
	for _, k := range promptKeys {
		if v, ok := cp[k].(string); ok {
			keep = append(keep, saved{key: k, val: v})
			delete(cp, k)
		}
	}
	if ctx, ok := cp["context"].(map[string]any); ok {
		c2 := make(map[string]any, len(ctx))
		for k, v := range ctx {
			c2[k] = v
		}
		if v, ok := c2["prompt"].(string); ok {
			keep = append(keep, saved{inCtx: true, key: "prompt", val: v})
			delete(c2, "prompt")
		}
		cp["context"] = c2
	}
	return cp, func(v any) any {
		out, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for _, s := range keep {
			if s.inCtx {
				if c, ok := out["context"].(map[string]any); ok {
					c[s.key] = s.val
				}
				continue
			}
			out[s.key] = s.val
		}
		return out
	}
}
