package engine

import (
	"context"
	"errors"
	"maps"

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
	res, err := r.resolveTarget(ctx, owner, "", arm.Target, hop)
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

// targetEnv is what a target and an initial: render against: the
// step's environment without the session's state.
func (r *runner) targetEnv() map[string]any {
	return sayEnv(r.env(r.slots, nil))
}

// pinInitials renders now the templated initial: of every compound the
// move to res descends through and keeps each choice for the walk; the
// returned func drops them. A render that fails is not kept: the
// descent renders it again and reports the error where it enters.
func (r *runner) pinInitials(res target) func() {
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
