package view

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/panicked"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// layoutWidth is the fixed width upstream lays typed views out at.
const layoutWidth = 80

// Renderer renders the views of one (folded) story, safe for concurrent use.
type Renderer struct {
	st *story.Story
	// dirFor is the story directory a state's views resolve against ("":
	// the innermost import wrapper's child, else the story's own).
	dirFor func(statePath string) string

	states map[string]*story.State

	mu      sync.Mutex
	loaders map[string]*dirLoader
	guards  map[string]guardEntry
	exprs   map[string]guardEntry
}

type guardEntry struct {
	p   *expr.Program
	err error
}

// newRenderer returns a renderer for st (the folded story the engine runs).
func newRenderer(st *story.Story) *Renderer {
	r := &Renderer{st: st, states: map[string]*story.State{},
		loaders: map[string]*dirLoader{}, guards: map[string]guardEntry{}, exprs: map[string]guardEntry{}}
	if st != nil {
		for _, s := range st.AllStates() {
			if _, dup := r.states[s.Path]; !dup {
				r.states[s.Path] = s
			}
		}
	}
	return r
}

// transitionViewKey is the extra entry carrying the winning transition's
// view (a *story.View or a string), replacing the state's for this render.
const transitionViewKey = "transition_view"

// transitionAtKey names the state a transition view taken inside a
// parallel configuration sees as state: its arc's target leaf.
const transitionAtKey = "transition_at"

// RenderView renders the view of the state at statePath ("a.b", or a
// parallel "p#p.a.x|p.b.y") against world, extra over the default context.
// A state without a view of its own renders "", as upstream.
func (r *Renderer) RenderView(statePath string, world map[string]any, extra map[string]any) (out string, err error) {
	defer r.recoverInto(statePath, &out, &err)
	extra = oneBudget(extra)
	if tv, ok := extra[transitionViewKey]; ok {
		rest := maps.Clone(extra)
		at, _ := rest[transitionAtKey].(string)
		delete(rest, transitionViewKey)
		delete(rest, transitionAtKey)
		switch v := tv.(type) {
		case *story.View:
			if v != nil {
				return r.renderTransition(statePath, at, v, world, rest)
			}
		case string:
			if v != "" {
				return r.renderTransition(statePath, at, &story.View{Kind: "template", Template: v}, world, rest)
			}
		}
		extra = rest
	}
	if root, leaves, ok := splitParallel(statePath); ok {
		return r.renderParallel(root, leaves, world, extra)
	}
	s, err := r.state(statePath)
	if err != nil {
		return "", err
	}
	if s.View == nil {
		return "", nil
	}
	return r.render(s.View, s, nil, world, extra)
}

// oneBudget returns extra (cloned) carrying one render budget for the
// whole view, so a view of many templates is bounded as one is.
func oneBudget(extra map[string]any) map[string]any {
	ctx, _ := extra[expr.ContextKey].(context.Context)
	if ctx == nil {
		ctx = context.Background()
	}
	out := make(map[string]any, len(extra)+1)
	maps.Copy(out, extra)
	out[expr.ContextKey] = expr.WithSharedBudget(ctx)
	return out
}

// renderTransition renders v, a transition's view:, for statePath; at is
// its transitionAtKey leaf.
func (r *Renderer) renderTransition(statePath, at string, v *story.View, world map[string]any, extra map[string]any) (string, error) {
	if v == nil {
		return "", nil
	}
	path := statePath
	var par []*story.State
	if root, leaves, ok := splitParallel(statePath); ok {
		var err error
		if par, err = r.leaves(leaves); err != nil {
			return "", err
		}
		// a parallel transition view sees the whole configuration as state.path
		// (conformance view-par-transition-path) or its arc's leaf (par-transition-view)
		path = root
		seen := map[string]any{"path": statePath, "description": ""}
		if at != "" {
			seen = map[string]any{"path": at, "description": ""}
			if leaf, err := r.state(at); err == nil {
				seen = map[string]any{"path": leaf.Path, "description": leaf.Description}
			} // else a leaf the story lacks (transition-view-unknown-target)
		}
		extra = maps.Clone(extra)
		if extra == nil {
			extra = map[string]any{}
		}
		extra["state"] = seen
	}
	s, err := r.state(path)
	if err != nil {
		if par != nil {
			return "", err
		}
		// a templated target naming no state: upstream shows the arm's
		// view there all the same, the path as state.path (conformance
		// transition-view-unknown-target)
		s = &story.State{Path: path, Name: path[strings.LastIndexByte(path, '.')+1:]}
	}
	return r.render(v, s, par, world, extra)
}

func (r *Renderer) recoverInto(statePath string, out *string, err *error) {
	if p := recover(); p != nil {
		*out = ""
		pe := panicked.Logged(os.Stderr, "rendering", "the renderer", p)
		*err = &Error{State: statePath, What: "view", Internal: true, Msg: pe.Error(), Err: pe}
	}
}

// leaves are the states of a parallel configuration's region leaves.
func (r *Renderer) leaves(paths []string) ([]*story.State, error) {
	out := make([]*story.State, 0, len(paths))
	for _, p := range paths {
		s, err := r.state(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (r *Renderer) state(path string) (*story.State, error) {
	p := strings.ReplaceAll(path, "/", ".")
	if s := r.states[p]; s != nil {
		return s, nil
	}
	return nil, &Error{State: path, What: "view", Msg: "no such state in the story (check the state path)"}
}

// dir is the story directory the views of s resolve against.
func (r *Renderer) dir(s *story.State) string {
	if r.dirFor != nil {
		if d := r.dirFor(s.Path); d != "" {
			return d
		}
	}
	for cur := s; cur != nil; cur = cur.Parent {
		if cur.Import != nil && cur.Import.Child != nil && cur.Import.Child.Dir != "" {
			return cur.Import.Child.Dir
		}
	}
	if r.st != nil {
		return r.st.Dir
	}
	return "."
}

// render renders one view for state s; par holds the region leaves of a
// parallel configuration.
func (r *Renderer) render(v *story.View, s *story.State, par []*story.State, world, extra map[string]any) (string, error) {
	env := r.env(s, par, world, extra)
	dl := r.loader(r.dir(s))
	switch v.Kind {
	case "template", "":
		return dl.renderString(v.Template, env, v.Pos, s.Path, "view")
	case "elements":
		return r.renderElements(v.Elements, "view", dl, s, env)
	case "template_file":
		if v.TemplateFile == "" {
			return "", &Error{Pos: v.Pos, State: s.Path, What: "view.template_file", Msg: "template_file is empty (name a file under views/)"}
		}
		name, err := dl.renderString(v.TemplateFile, env, v.Pos, s.Path, "view.template_file")
		if err != nil {
			return "", err
		}
		return dl.renderFile(filepath.ToSlash(name), env, v.Pos, s.Path)
	case "extends":
		return r.renderExtends(v, dl, s, env)
	}
	return "", &Error{Pos: v.Pos, State: s.Path, What: "view", Msg: fmt.Sprintf("unknown view form %q", v.Kind)}
}

// renderExtends fills the layout's blocks with the blocks' typed views.
func (r *Renderer) renderExtends(v *story.View, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	if v.Extends == "" {
		return "", &Error{Pos: v.Pos, State: s.Path, What: "view.extends", Msg: "extends is empty (name a layout under views/, e.g. extends: base)"}
	}
	name, err := dl.renderString(v.Extends, env, v.Pos, s.Path, "view.extends")
	if err != nil {
		return "", err
	}
	if !strings.HasSuffix(name, ".pongo") {
		name += ".pongo"
	}
	blocks := map[string]any{}
	order := append([]string(nil), v.BlockOrder...)
	for b := range v.Blocks {
		if !slices.Contains(order, b) {
			order = append(order, b)
		}
	}
	var src strings.Builder
	fmt.Fprintf(&src, "{%% extends %q %%}", filepath.ToSlash(name))
	for i, b := range order {
		if !blockName.MatchString(b) {
			return "", &Error{Pos: v.Pos, State: s.Path, What: "view.blocks." + b, Msg: "a block name must be a pongo2 identifier (letters, digits, _)"}
		}
		text, err := r.renderElements(v.Blocks[b], "view.blocks."+b, dl, s, env)
		if err != nil {
			return "", err
		}
		key := fmt.Sprintf("b%d", i)
		blocks[key] = text
		fmt.Fprintf(&src, "{%% block %s %%}{{ %s.%s }}{%% endblock %%}", b, blocksVar, key)
	}
	benv := make(expr.Env, len(env)+1)
	maps.Copy(benv, env)
	benv[blocksVar] = blocks
	return dl.renderLayout(src.String(), name, benv, v.Pos, s.Path)
}

// blocksVar carries the laid-out blocks into the generated child template.
const blocksVar = "__kitsoki_view_blocks"

// blockName is what a block name must be: a pongo2 identifier.
var blockName = &lazyre.Regexp{Expr: `^[A-Za-z_][A-Za-z0-9_]*$`}
