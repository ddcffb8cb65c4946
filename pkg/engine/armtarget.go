package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story/expr"
)

// An arm's target is resolved before its effects run, as upstream's
// machine does: a templated target, and every templated initial: the
// move descends through (a parallel state's regions too), render against
// the world before the arm's set:/increment: (story-runtime §1.6: the
// resolved path is expanded before the effects; conformance
// target-before-effects). Neither sees the session's state (`{{
// state.path }}` is empty there, as in say:).

// armTarget resolves arm's target from owner. A templated one that
// renders a path the story does not hold is where the machine goes, as
// upstream (on a user turn, an emit hop, a parallel turn and an emit:
// receiver alike): it rests there as on an unknown flow start
// (conformance mutate-template-target-unknown, hop-template-target-unknown).
func (r *runner) armTarget(ctx context.Context, owner *State, arm *Transition, hop bool) (target, error) {
	res, err := r.resolveTarget(owner, "", arm.Target, hop)
	if u, ok := r.unknownTarget(err); ok && arm.Target != nil && arm.Target.templated() {
		return u, nil
	}
	return res, err
}

// renderHop renders an emit hop's target as upstream does, with the expr
// template engine (story-runtime §1.6): a `{% %}` tag stays text, and a root the engine forbids (`{{ state.path }}`) fails.
// A target only pongo2 parses (`{{ x|lower }}`, which fails upstream
// there) renders with pongo2 (docs/compat/engine.md).
func (t *text) renderHop(env map[string]any) (string, error) {
	if t.hx != nil {
		v, err := t.hx.Render(env)
		if err != nil {
			return "", err
		}
		return toString(v), nil
	}
	if xe, ok := errors.AsType[*expr.Error](t.hxErr); ok && xe.Kind == expr.KindWhitelist {
		return "", t.hxErr
	}
	return t.render(env)
}

// completionDest resolves a job's on_complete target as upstream does
// (story-runtime §5; conformance oncomplete-target-expr). A templated one
// renders with the expr template engine alone, after the chain's effects,
// and must render a string (a `{% %}` tag stays text; `{{ x|lower }}`,
// `{{ state.path }}` and `{{ world.n }}`, an int, fail). Paths are read
// from the job's origin state, not from the state declaring the job:
// each "../" written in front climbs one level from it; a rendered path
// that itself starts with "./" or "../" is appended to the origin as
// written (so names no state), a rendered ".." is the origin's parent;
// any other path is absolute. A path the story does not hold is an error,
// `@exit:` and "." included; the caller drops a target that fails.
func (r *runner) completionDest(ctx context.Context, t *text, origin string) (target, error) {
	if !t.templated() && !strings.HasPrefix(t.src, "..") {
		return r.resolveTarget(nil, "", t, false)
	}
	base, climbs := origin, 0
	for rest := t.src; strings.HasPrefix(rest, "../"); rest = rest[3:] {
		if base == "" {
			return target{}, fmt.Errorf("target %q climbs above the top level from %q (too many ../ segments)", t.src, origin)
		}
		base, climbs = parentPath(base), climbs+1
	}
	s := t.src
	if t.templated() {
		v, err := t.renderExpr(r.targetEnv())
		if err != nil {
			return target{}, fmt.Errorf("target %q: %w", t.src, err)
		}
		str, ok := v.(string)
		if !ok {
			return target{}, fmt.Errorf("target %q renders %s, not a state path", t.src, valueWord(v))
		}
		s = str
	}
	s = strings.TrimSpace(s[3*climbs:]) // the "../"s render as written
	var path string
	switch dotted := strings.ReplaceAll(s, "/", "."); {
	case s == "..":
		path = parentPath(origin)
	case strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../"):
		path = origin + "." + dotted
	case climbs > 0 && base != "":
		path = base + "." + dotted
	default:
		path = dotted
	}
	if st := r.m.States[path]; st != nil {
		return target{state: st}, nil
	}
	return target{}, &unknownTargetError{target: t.src, path: path}
}

// parentPath is the dotted path one level above p ("" above the top).
func parentPath(p string) string {
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// renderExpr renders a target with the expr template engine alone; a
// target that engine does not compile fails with its compile error.
func (t *text) renderExpr(env map[string]any) (any, error) {
	switch {
	case t.hx != nil:
		return t.hx.Render(env)
	case t.hxErr != nil:
		return nil, t.hxErr
	case t.templated():
		_, err := expr.CompileTemplate(t.src)
		return nil, cmp.Or(err, errors.New("the expr template engine does not render it"))
	}
	return t.src, nil
}

// valueWord names the kind of a rendered value for a message in the
// story's words ("a number", "an object", "null"), with the value itself
// when it is short.
func valueWord(v any) string {
	w := jsonvalue.WithArticle(jsonvalue.Kind(v))
	switch v.(type) {
	case nil, string, map[string]any, []any:
		return w
	}
	return fmt.Sprintf("%s (%v)", w, v)
}

// targetEnv is what a target and an initial: render against: the
// step's environment without the session's state.
func (r *runner) targetEnv() map[string]any {
	return sayEnv(r.env(r.slots, nil))
}

// pinInitials renders now the templated initial: of every compound the
// move to res descends through and keeps each choice for the walk; the
// returned func drops them. A render that fails is not kept: the
// descent renders it again and reports the error where it enters.
// A stay means the arm's owner (ancestorStay), whose initial: chain is
// pinned the same way: before the effects (conformance
// ancestor-stay-initial-before-effects).
func (r *runner) pinInitials(res target, owner *State) func() {
	if res.stay && owner != nil {
		res = target{state: owner}
	}
	if res.state == nil {
		return func() {}
	}
	prev := r.t.initials
	pins := maps.Clone(prev)
	if pins == nil {
		pins = map[*State]*State{}
	}
	var pin func(s *State)
	pin = func(s *State) {
		for len(s.Children) > 0 {
			if s.Parallel {
				for _, reg := range s.regions() {
					pin(reg)
				}
				return
			}
			c, err := r.initialChild(s)
			if err != nil || c == nil {
				return
			}
			if s.Initial.templated() {
				pins[s] = c
			}
			s = c
		}
	}
	pin(res.state)
	r.t.initials = pins
	return func() { r.t.initials = prev }
}

// startArm begins a chosen arm's walk in upstream's order: its target is
// resolved and the initials the move descends through pinned before its
// effects run. It returns the target the walk moves to (a stay inside the
// arm's owner resolved by ancestorStay) and the func that drops the pins,
// which the caller defers; kind and name ("intent", "emit") place a
// target error.
func (r *runner) startArm(ctx context.Context, owner *State, arm *Transition, hop bool, kind, name string, st *step) (target, func(), error) {
	res, err := r.armTarget(ctx, owner, arm, hop)
	if err != nil {
		return target{}, nil, fmt.Errorf("%s: %s %q: %w", arm.Pos, kind, name, err)
	}
	unpin := r.pinInitials(res, owner)
	if err := r.runEffects(ctx, arm.Effects, st); err != nil {
		unpin()
		return target{}, nil, err
	}
	return r.ancestorStay(res, owner), unpin, nil
}
