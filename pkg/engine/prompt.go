package engine

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// PromptRenderer renders the with: block and the prompt of a
// host.agent.<verb> call site exactly as a live run does at dispatch (a run
// and pkg/eval share it). It compiles each prompt once and is safe for
// concurrent use.
type PromptRenderer struct {
	dir    string
	loader *expr.PongoLoader
	roots  []string // prompt files must lie inside one (promptroot.go)

	mu     sync.Mutex
	files  map[string]*expr.Pongo
	inline map[string]*text

	beforeStat func(path string) // tests: runs between confine and fileThere's look
}

// NewPromptRenderer prepares rendering for st. Prompt and schema paths are
// relative to the story directory; pongo2 {% include %} / {% extends %}
// resolve through the story's search path (storyLoader).
func NewPromptRenderer(st *story.Story) *PromptRenderer {
	return newPromptRenderer(st.Dir, storyLoader(st))
}

// storyLoader is the pongo2 loader of a story's prompts (story-format
// §6.3): prompts.overlay, the story directory, its prompts/, and the
// @story / @shared namespaces.
func storyLoader(st *story.Story) *expr.PongoLoader {
	dirs, shared := st.PromptSearch()
	l := expr.NewPongoLoader(dirs...)
	l.AddNamespace("@story", st.Dir)
	for _, d := range shared {
		l.AddNamespace("@shared", d)
	}
	return l
}

// inlineLoader is the pongo2 loader of the templates a story holds
// inline (say:, a templated target, initial:, timeout.after): as
// upstream's, it searches the story directory only, with no overlay,
// prompts/ or namespace (conformance say-include-story-dir).
func inlineLoader(st *story.Story) *expr.PongoLoader {
	return expr.NewPongoLoader(st.Dir)
}

func newPromptRenderer(dir string, l *expr.PongoLoader) *PromptRenderer {
	return &PromptRenderer{dir: dir, loader: l, roots: promptRoots(dir, l), files: map[string]*expr.Pongo{}, inline: map[string]*text{}}
}

// CallEnv is what a call site renders against: the template roots world,
// slots, run {id, turn, story_dir}, state {path} and event.
type CallEnv struct {
	World     map[string]any // read, never written
	Slots     map[string]any // nil = none
	StatePath string         // "" = no current state
	// StateDescription is the current state's description: ("" = none).
	StateDescription string
	// Render, when set, is the context the renders spend their budget in
	// (a turn's shared budget: renderbudget.go); nil = a budget each.
	Render context.Context
	// Plugin is set when the call names an agent: alias (upstream's
	// plugin path, agent-contract §12.1), whose prompt sources keep
	// pluginSources; unset, the claude path's (agentSources).
	Plugin bool
}

// RenderedCall is one rendered agent call site.
type RenderedCall struct {
	Verb string // ask, decide, extract, task, converse
	// With is the rendered with: block as the agent layer receives it
	// (the effect's id: rendered and added as call:).
	With       map[string]any
	Prompt     string // the rendered prompt text
	SchemaPath string // story-relative schema path, "" when none
}

// RenderError says which half of a call site failed to render: "with"
// (the {{ }} value templates of with:) or "prompt" (the pongo2 prompt).
type RenderError struct {
	Stage string
	Err   error
}

func (e *RenderError) Error() string { return e.Stage + ": " + e.Err.Error() }

func (e *RenderError) Unwrap() error { return e.Err }

// RenderAgentCall renders the host.agent.<verb> call site handler with the
// raw with: tree (read, never written; id is the effect's id:) against env,
// as a live run does at dispatch: every with: string through the {{ }}
// engine, prompts included (conformance probe 17; id added as with.call,
// probe 03), then the prompt the verb picks (agentSources, agent-contract
// §12) through pongo2 with args. A non-nil args replaces the call's
// template args unrendered (pkg/eval's dataset examples). Errors are
// *RenderError; a "prompt" error still returns the call, With set.
func (p *PromptRenderer) RenderAgentCall(handler, id string, with any, args map[string]any, env CallEnv) (*RenderedCall, error) {
	verb, ok := strings.CutPrefix(handler, "host.agent.")
	if !ok || !agentVerbs[verb] {
		return nil, &RenderError{Stage: "with", Err: fmt.Errorf("%q is not an agent handler (host.agent.{ask,decide,extract,task,converse})", handler)}
	}
	e := p.env(env, nil)
	var sub *argsSub
	if args != nil {
		sub = newArgsSub(verb, with, args)
	}
	w, err := p.renderWith(with, renderCallID(id, e), id != "", sub, e)
	if err != nil {
		return nil, &RenderError{Stage: "with", Err: err}
	}
	rc := &RenderedCall{Verb: verb, With: w}
	src, tmplArgs, schema := agentSources(verb, w, env.Plugin)
	rc.SchemaPath = schema
	e["args"] = tmplArgs
	rc.Prompt, err = p.renderPrompt(src, e)
	if err != nil {
		return rc, &RenderError{Stage: "prompt", Err: err}
	}
	return rc, nil
}

// renderPromptArgs renders a prompt (a file under the story directory, else
// inline pongo2 text) against env plus args, as step 3 of RenderAgentCall
// does: the engine's own decider prompt, which is not a with: value.
func (p *PromptRenderer) renderPromptArgs(prompt string, args map[string]any, env CallEnv) (string, error) {
	e := p.env(env, map[string]any{"args": args})
	return p.renderPrompt(promptSrc{text: prompt}, e)
}

// argsSub replaces a call's template args: with.args, or context.args for
// a task call with a context: block and no top-level args.
type argsSub struct {
	args  map[string]any
	inCtx bool
}

func newArgsSub(verb string, with any, args map[string]any) *argsSub {
	m, _ := with.(map[string]any)
	_, top := m["args"]
	_, isCtx := m["context"].(map[string]any)
	return &argsSub{args: args, inCtx: verb == "task" && !top && isCtx}
}

// drop removes what the substitution replaces (it is not rendered).
func (a *argsSub) drop(m map[string]any) {
	if a.inCtx {
		if c, ok := m["context"].(map[string]any); ok {
			delete(c, "args")
		}
		return
	}
	delete(m, "args")
}

// put sets the substituted args.
func (a *argsSub) put(m map[string]any) {
	if a.inCtx {
		if c, ok := m["context"].(map[string]any); ok {
			c["args"] = a.args
			return
		}
	}
	m["args"] = a.args
}

// renderWith renders a raw with: tree against env into a new map (the
// tree is never written) and, when the effect has an id (hasID), adds
// call: the id as given, kept though it rendered empty, as upstream's
// dispatched args keep "call": "" (conformance call-id-renders-empty).
func (p *PromptRenderer) renderWith(with any, call string, hasID bool, sub *argsSub, env expr.Env) (map[string]any, error) {
	v, err := prepareWith(with, sub)
	if err != nil {
		return nil, err
	}
	// an infinite or NaN number is passed on, as upstream does
	// (conformance with-non-finite); --strict refuses it (strictArgs)
	rendered, err := v.Render(env)
	if err != nil {
		return nil, err
	}
	out, _ := normalizeFresh(rendered).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	if sub != nil {
		sub.put(out)
	}
	if hasID {
		out["call"] = call
	}
	return out, nil
}

// renderCallID is an effect's id: as a dispatched call carries it in
// args.call: rendered like a with: value, kept as written when it cannot
// be (harness.called shows the raw id, as upstream).
func renderCallID(id string, env expr.Env) string {
	s, _ := renderCallIDOK(id, env)
	return s
}

// renderCallIDOK is renderCallID, ok false when a templated id could not
// be rendered and is kept as written.
func renderCallIDOK(id string, env expr.Env) (string, bool) {
	if !strings.Contains(id, "{{") {
		return id, true
	}
	t, err := expr.CompileTemplate(id)
	if err != nil {
		return id, false
	}
	s, err := t.RenderString(env)
	if err != nil {
		return id, false
	}
	return s, true
}

// prepareWith compiles a with: tree's {{ }} templates (args replaced by
// sub are dropped first: they are not rendered).
func prepareWith(with any, sub *argsSub) (*expr.Value, error) {
	raw := jsonvalue.Normalize(with)
	if rm, ok := raw.(map[string]any); ok && sub != nil {
		sub.drop(rm)
	}
	return expr.PrepareValue(raw)
}

// callEnv builds the expression/template environment of the engine.
func callEnv(storyDir string, ce CallEnv) map[string]any {
	slots := templateSlots(ce.Slots)
	st := map[string]any{}
	if ce.StatePath != "" {
		st["path"] = ce.StatePath
		st["description"] = ce.StateDescription
	}
	// run.id and run.turn are "" and 0, as upstream's machine has no run
	// context (docs/compat/engine.md "run.id and run.turn"; validate warns).
	env := expr.Strict(map[string]any{
		"world": ce.World,
		"slots": slots,
		"run":   map[string]any{"id": "", "turn": 0, "story_dir": storyDir},
		"state": st,
		"event": map[string]any{},
		// nil maps, as upstream's (a say: prints them as maps; conformance roots-nil-maps)
		"args": map[string]any(nil),
		"menu": map[string]any(nil),
	})
	if ce.Render != nil {
		env[expr.ContextKey] = ce.Render
	}
	return env
}

func (p *PromptRenderer) env(ce CallEnv, extra map[string]any) map[string]any {
	if ce.World == nil {
		ce.World = map[string]any{}
	}
	e := callEnv(p.dir, ce)
	maps.Copy(e, extra)
	return e
}

// agentSources picks the prompt source, the template args and the schema
// path of a verb's rendered with: block (reference agent-contract §12,
// probed on upstream's real handlers: conformance agent-prompt-sources).
// On the plugin path (an agent: alias) ask, decide and converse read
// theirs alike, as upstream's session does (docs/compat/agent-contract.md
// "Prompt sources on the plugin path"); task and extract keep
// pluginSources. src.key is set when the source came from a prompt_path
// key (it must name a file).
func agentSources(verb string, args map[string]any, plugin bool) (src promptSrc, tmplArgs any, schema string) {
	ctxBlock, _ := args["context"].(map[string]any)
	acc, _ := args["acceptance"].(map[string]any)
	tmplArgs = args["args"]
	schema = str(args, "schema")
	if verb != "extract" {
		// a blank schema is no schema; decide's is read trimmed (extract
		// keeps what it was given)
		schema = strings.TrimSpace(schema)
	}
	switch {
	case plugin && (verb == "task" || verb == "extract"):
		src = pluginSources(verb, args, ctxBlock)
	case verb == "decide":
		// read trimmed, before pongo2 renders it: " pr.md " names the
		// file, "  {% if %} hi {% endif %}  " sends " hi "
		src.text = strings.TrimSpace(str(args, "prompt"))
		if src.text == "" {
			src = promptSrc{text: strings.TrimSpace(str(args, "prompt_path")), key: "prompt_path"}
		}
	case verb == "ask":
		// prompt_path (trimmed) wins over prompt:; a prompt: naming a
		// file (trimmed) is that file, else its text is sent as written,
		// {% %} tags and all: pongo2 renders files only
		if pp := strings.TrimSpace(str(args, "prompt_path")); pp != "" {
			src = promptSrc{text: pp, key: "prompt_path"}
		} else {
			src = promptSrc{text: str(args, "prompt"), mode: fileOrRaw}
		}
	case verb == "task":
		// context.prompt alone: a top-level prompt: or prompt_path: and
		// context.prompt_path are not read (an empty prompt is sent)
		src = promptSrc{text: str(ctxBlock, "prompt")}
	case verb == "converse": // the question as written, whatever prompt: says
		src = promptSrc{text: str(args, "question"), mode: literal}
	case verb == "extract":
		src = pluginSources(verb, args, ctxBlock)
	}
	if verb == "task" { // a missing context: or acceptance: block reads as empty
		if a, ok := ctxBlock["args"]; ok && tmplArgs == nil {
			tmplArgs = a
		}
		if s := str(ctxBlock, "schema"); s != "" && schema == "" {
			schema = s
		}
		if schema == "" {
			schema = str(acc, "schema")
		}
	}
	if src.text == "" {
		src = promptSrc{}
	}
	if tmplArgs == nil {
		tmplArgs = map[string]any{}
	}
	return src, tmplArgs, schema
}

// str is m[k] when it is a string, else "".
func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// pluginSources is the prompt source of a task call on the plugin path
// (an agent: alias) and of every extract call: prompt: before
// prompt_path; task's context.prompt, then context.prompt_path;
// extract's input. A text naming no file is inline pongo2. Upstream's
// plugin path sends task's context.prompt and extract's input as written
// instead (a documented difference: docs/compat/agent-contract.md).
func pluginSources(verb string, args, ctxBlock map[string]any) promptSrc {
	src := promptSrc{text: str(args, "prompt")}
	if src.text == "" {
		src = promptSrc{text: str(args, "prompt_path"), key: "prompt_path"}
	}
	switch verb {
	case "task":
		if p := str(ctxBlock, "prompt"); p != "" && src.text == "" {
			src = promptSrc{text: p}
		}
		if p := str(ctxBlock, "prompt_path"); p != "" && src.text == "" {
			src = promptSrc{text: p, key: "context.prompt_path"}
		}
	case "extract":
		if in := str(args, "input"); in != "" && src.text == "" {
			src = promptSrc{text: in}
		}
	}
	return src
}

// promptSrc is where a prompt comes from.
type promptSrc struct {
	text string
	key  string // the prompt_path key it came from (it must name a file), for errors
	mode srcMode
}

// srcMode is how a prompt text that names no file is sent.
type srcMode int

const (
	fileOrInline srcMode = iota // a file, else inline pongo2
	fileOrRaw                   // a file (named trimmed), else the text as written
	literal                     // the text as written, never a file
)

// renderPrompt renders a prompt file (a path that exists under the story
// dir) or an inline pongo2 prompt against env.
func (p *PromptRenderer) renderPrompt(src promptSrc, env expr.Env) (string, error) {
	if src.text == "" || src.mode == literal {
		return src.text, nil
	}
	name := src.text
	if src.mode == fileOrRaw {
		name = strings.TrimSpace(name)
	}
	if !strings.ContainsAny(name, "\n{") && p.dir != "" {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.dir, path)
		}
		// Confined first, and nothing outside is looked at, so the answer
		// is the same whether or not a file is there: a prompt_path
		// outside is refused, as is a prompt: written inside the roots
		// that a link leads out of; a prompt: written outside them
		// (`/compact`, `../x`) is inline text, as upstream sends one
		// naming no file. validate reports both (rule prompt-root).
		if err := p.confine(src, path); err != nil {
			if src.key != "" || p.writtenInside(path) {
				return "", err
			}
		} else if there, err := p.fileThere(src, path); err != nil {
			return "", err
		} else if there {
			t, err := p.promptFile(path)
			if err != nil {
				return "", fmt.Errorf("%s: %w", name, err)
			}
			return t.Render(env)
		}
	}
	if src.key != "" {
		return "", fmt.Errorf("%s %q names no file in the story directory %s; fix the path or use prompt: for inline text", src.key, src.text, p.dir)
	}
	if src.mode == fileOrRaw {
		return src.text, nil
	}
	t, err := p.inlinePrompt(src.text)
	if err != nil {
		return "", err
	}
	return t.render(env)
}

// inlinePrompt compiles (once) an inline pongo2 template.
func (p *PromptRenderer) inlinePrompt(src string) (*text, error) {
	return cached(&p.mu, p.inline, src, func() (*text, error) { return compileText(p.loader, src) })
}

// promptFile compiles (once) a prompt file with the story's pongo2 loader.
func (p *PromptRenderer) promptFile(path string) (*expr.Pongo, error) {
	return cached(&p.mu, p.files, path, func() (*expr.Pongo, error) { return p.loader.CompileFile(path) })
}

// cached is m[key], built (under mu) and kept the first time it is asked
// for; a build that fails is not kept.
func cached[T any](mu *sync.Mutex, m map[string]T, key string, build func() (T, error)) (T, error) {
	mu.Lock()
	defer mu.Unlock()
	if v, ok := m[key]; ok {
		return v, nil
	}
	v, err := build()
	if err == nil {
		m[key] = v
	}
	return v, err
}
