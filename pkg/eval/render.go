package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// Renderer renders a call site's prompt and with: block for an example the
// way the engine does at the call site (pongo2 prompt against args and
// world; {{ }} templates in with:), with the example's args in place of the
// call site's with.args and the story's world defaults as the world.
//
// NOTE: pkg/engine renders prompts in an unexported method; this mirrors it
// (agentSources + renderPrompt) until the engine exports one.
type Renderer struct {
	st     *story.Story
	cs     *CallSite
	loader *expr.PongoLoader
	world  map[string]any
	files  map[string]*expr.Pongo
}

// NewRenderer prepares rendering for cs.
func NewRenderer(st *story.Story, cs *CallSite) *Renderer {
	w := map[string]any{}
	for _, v := range st.World {
		w[v.Name] = jsonNormalize(v.Default)
	}
	return &Renderer{st: st, cs: cs, loader: expr.NewPongoLoader(st.Dir, filepath.Join(st.Dir, "prompts")), world: w, files: map[string]*expr.Pongo{}}
}

// World returns a fresh copy of the world snapshot sent with each call.
func (r *Renderer) World() map[string]any {
	m, _ := jsonNormalize(r.world).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// Render returns the rendered prompt and with: block for example args.
// It is not safe for concurrent use (Run renders before dispatching).
func (r *Renderer) Render(args map[string]any) (string, map[string]any, error) {
	if args == nil {
		args = map[string]any{}
	}
	env := expr.Env{
		"world": r.World(),
		"args":  args,
		"slots": map[string]any{},
		"event": map[string]any{},
		"run":   map[string]any{"id": "eval", "turn": 0, "story_dir": r.st.Dir},
		"state": map[string]any{"path": r.cs.StatePath},
	}
	raw := map[string]any{}
	for k, v := range r.cs.Effect.With {
		if k == "args" {
			continue
		}
		raw[k] = v
	}
	out, err := expr.RenderValue(raw, env)
	if err != nil {
		return "", nil, fmt.Errorf("call site %q: with: %v", r.cs.Call, err)
	}
	with, _ := out.(map[string]any)
	if with == nil {
		with = map[string]any{}
	}
	_, topArgs := r.cs.Effect.With["args"]
	if ctx, ok := with["context"].(map[string]any); ok && r.cs.Verb() == "task" && !topArgs {
		ctx["args"] = args
	} else {
		with["args"] = args
	}
	src, tmplArgs := promptSource(r.cs.Verb(), with)
	env["args"] = tmplArgs
	prompt, err := r.renderPrompt(src, env)
	if err != nil {
		return "", nil, fmt.Errorf("call site %q: prompt: %v", r.cs.Call, err)
	}
	return prompt, with, nil
}

// promptSource picks the prompt source and template args of a verb's with:
// block, like the engine (agent-contract §12).
func promptSource(verb string, with map[string]any) (string, any) {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	prompt := str(with, "prompt")
	if prompt == "" {
		prompt = str(with, "prompt_path")
	}
	args := with["args"]
	switch verb {
	case "task":
		if c, ok := with["context"].(map[string]any); ok {
			if prompt == "" {
				prompt = str(c, "prompt")
			}
			if prompt == "" {
				prompt = str(c, "prompt_path")
			}
			if a, ok := c["args"]; ok && args == nil {
				args = a
			}
		}
	case "converse":
		if prompt == "" {
			prompt = str(with, "question")
		}
	case "extract":
		if prompt == "" {
			prompt = str(with, "input")
		}
	}
	if args == nil {
		args = map[string]any{}
	}
	return prompt, args
}

func (r *Renderer) renderPrompt(src string, env expr.Env) (string, error) {
	if src == "" {
		return "", nil
	}
	if !strings.ContainsAny(src, "\n{") {
		p := src
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.st.Dir, src)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			t := r.files[p]
			if t == nil {
				t, err = r.loader.CompileFile(p)
				if err != nil {
					return "", fmt.Errorf("%s: %v", src, err)
				}
				r.files[p] = t
			}
			return t.Render(env)
		}
	}
	t, err := r.loader.Compile(src)
	if err != nil {
		return "", err
	}
	return t.Render(env)
}
