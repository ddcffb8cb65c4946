package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// target is a resolved transition target.
type target struct {
	stay  bool
	exit  string // @exit:<name>
	state *State
	// regions: a stay on an arm of the parallel state that the machine
	// rests partly inside (state), which enters every region (partial.go)
	regions bool
}

func (t target) describe() string {
	switch {
	case t.exit != "":
		return "__exit__" + t.exit
	case t.state != nil:
		return t.state.Path
	}
	return "."
}

// resolveTarget resolves a literal target string (lit) or a compiled
// (possibly templated) one relative to the declaring state.
func (r *runner) resolveTarget(owner *State, lit string, t *text, hop bool) (target, error) {
	s := lit
	if t != nil {
		render := t.render
		if hop {
			render = t.renderHop
		}
		v, err := render(r.targetEnv())
		if err != nil {
			return target{}, fmt.Errorf("target %q: %w", t.src, err)
		}
		s = v
	}
	if lit != "" && strings.TrimSpace(s) != s {
		// an on_error target (the only lit) is not trimmed (conformance on-error-untrimmed)
		return target{}, &unknownTargetError{target: s, path: s}
	}
	s = strings.TrimSpace(s)
	if s == "" || s == "." {
		return target{stay: true}, nil
	}
	if strings.HasPrefix(s, "@exit:") && t.templated() {
		// upstream rewrites only a written @exit: (at load): a rendered
		// one is a path the story does not hold (conformance
		// template-target-exit)
		return target{}, &unknownTargetError{target: s, path: s}
	}
	if lit != "" && (strings.HasPrefix(s, "@exit:") || strings.HasPrefix(s, "__exit__") && r.m.States[s] == nil && !r.m.exitStates[s[len("__exit__"):]]) {
		// an on_error is never mapped to an exit (the fold maps an
		// imported child's to a state; a root story's is looked up as a
		// path it does not hold, declared exit or not): conformance
		// on-error-exit-undeclared. "__exit__NAME" names the state
		// upstream's loader made for an arm's or a timeout's written
		// @exit:NAME, when there is one (conformance on-error-exit-state)
		return target{}, &unknownTargetError{target: s, path: s}
	}
	if name, ok := strings.CutPrefix(s, "@exit:"); ok {
		if len(r.m.Exits) > 0 && !r.m.Exits[name] {
			return target{}, fmt.Errorf("target @exit:%s: the story declares no exit %q (list it under exits)", name, name)
		}
		return target{exit: name}, nil
	}
	if name, ok := strings.CutPrefix(s, "__exit__"); ok && r.m.States[s] == nil {
		return target{exit: name}, nil
	}
	base := ""
	if owner != nil {
		base = owner.Path
	}
	path, err := resolvePath(owner, s)
	if err != nil && lit != "" {
		// an on_error's "../" that climbs above the top level stays at
		// the top, as upstream's: "../../y" from a top-level state, or
		// from an exit's __exit__NAME, names the top-level y
		// (conformance on-error-climb-above-top)
		if p, _ := story.ClimbPath(base, s); p != "" {
			path, err = p, nil
		}
	}
	if err != nil {
		if p, perr := story.ResolvePath(base, s); perr == nil && p == "" && t.templated() {
			// a rendered ".." above the top level is the empty path,
			// where upstream's machine goes (conformance
			// template-target-above-top)
			return target{}, &unknownTargetError{target: s, path: ""}
		}
		return target{}, err
	}
	st := r.m.States[path]
	if st == nil {
		return target{}, &unknownTargetError{target: s, path: path}
	}
	return target{state: st}, nil
}

// unknownTargetError is a target that resolves to no state of the story.
type unknownTargetError struct{ target, path string }

func (e *unknownTargetError) Error() string {
	return fmt.Sprintf("target %q resolves to %q, which is not a state", e.target, e.path)
}

// unknownTarget is where upstream's machine rests when a user turn's
// templated target renders a path the story does not hold: an
// unknownLeaf, or a state of its own at the top (conformance
// mutate-template-target-unknown).
func (r *runner) unknownTarget(err error) (target, bool) {
	ue, ok := errors.AsType[*unknownTargetError](err)
	if !ok {
		return target{}, false
	}
	if l := r.unknownLeaf(ue.path, nil); l != nil {
		return target{state: l}, true
	}
	// no known prefix: each dotted prefix is entered all the same
	// (conformance hop-template-target-unknown)
	var s *State
	for i, c := range ue.path {
		if c == '.' {
			s = r.unknownState(ue.path[:i], s)
		}
	}
	return target{state: r.unknownState(ue.path, s)}, true
}

// dispatchBase is the state an on_error target's "../" climbs from: the
// state the turn ends in, or in a parallel state the declaring region's
// leaf (story-runtime §2.4; docs/compat/engine.md "on_error target
// resolution"). When a hop took the session to an exit before the call
// failed, it climbs from the exit's __exit__NAME path, as upstream, so an
// imported child's "../x" names no state there (conformance
// exit-redirect-climb). A job's on_complete chain dispatches its calls at
// the completion's origin, wherever its hops went: a redirect of the
// chain's own (not nested in a landing) climbs from there (conformance
// oncomplete-redirect-climb).
func (r *runner) dispatchBase(owner *State, nested bool) *State {
	if o := r.m.States[r.t.chainOrigin]; o != nil && !nested {
		return o
	}
	switch {
	case r.ended && r.outcome == OutcomeExit:
		return &State{Path: "__exit__" + r.exit, Name: "__exit__" + r.exit}
	case r.par != nil:
		if reg := r.par.regionOf(owner); reg != nil {
			if l := r.par.leafIn(reg); l != nil {
				return l
			}
		}
		if owner == nil || r.par.regionOf(owner) == nil {
			// a hop took the session into the configuration before the
			// call failed: upstream climbs from its encoded path, as a
			// string (conformance on-error-climb-parallel)
			return &State{Path: r.par.encode(), Name: r.par.encode()}
		}
		return owner
	case r.cur != nil:
		return r.cur
	}
	return owner
}

// resolvePath applies the target forms of story-runtime §1.6 through
// story.ResolvePath, so the engine and kitsoki validate agree.
func resolvePath(owner *State, s string) (string, error) {
	base := ""
	if owner != nil {
		base = owner.Path
	}
	p, err := story.ResolvePath(base, s)
	if err != nil {
		return "", err
	}
	if p == "" {
		return "", fmt.Errorf("target %q names no state", s)
	}
	return p, nil
}

// predictTo is the state a resolved target lands on, written as
// machine.transition.to before the move (story-runtime §1.8).
func (r *runner) predictTo(res target) string {
	switch {
	case res.stay && (r.bareParallel() || r.bareCompound()):
		return r.predictTo(target{state: r.cur})
	case res.stay:
		return r.statePath()
	case res.exit != "":
		return "__exit__" + res.exit
	}
	leaf, err := r.initialLeaf(res.state)
	if err != nil {
		return res.state.Path
	}
	if r.par != nil && res.state.within(r.par.root) && !r.flatHop(res.state) {
		pc := r.par.clone()
		pc.set(leaf)
		return pc.encode()
	}
	if leaf.Parallel {
		pc := &parConf{root: leaf}
		for _, reg := range leaf.regions() {
			l, err := r.initialLeaf(reg)
			if err != nil {
				return leaf.Path
			}
			pc.set(l)
		}
		return pc.encode()
	}
	return leaf.Path
}

func parallelAncestor(s *State) *State {
	for x := s.Parent; x != nil; x = x.Parent {
		if x.Parallel {
			return x
		}
	}
	return nil
}

// flatLanding reports whether res is landed flat (land): every state
// target, as upstream (conformance land-parallel, par-leaf, par-land).
func (r *runner) flatLanding(res target) bool {
	return res.state != nil && !res.stay && res.exit == ""
}

// landTo is the machine.transition.to of an on_error, timeout or
// on_complete target: the state itself when it is landed flat, otherwise
// the path predictTo gives.
func (r *runner) landTo(res target) string {
	if r.flatLanding(res) {
		return res.state.Path
	}
	return r.predictTo(res)
}

// land enters an on_error, timeout or on_complete target flat, as
// upstream (story-runtime §2.4, §4, §5): one state_exited of from, one
// state_entered of the target, its own on_enter, no initial: descent. A
// stay and an exit take the ordinary path.
func (r *runner) land(ctx context.Context, res target, st *step, from string) error {
	r.t.noView = false
	if res.exit != "" && from != "" {
		// an exit is landed flat too: one state_exited of from, also
		// from a nested or a region leaf (conformance on-error-exit-state)
		if err := r.emitState(KindStateExited, from); err != nil {
			return err
		}
		r.par = nil
		return r.enterExit(res.exit)
	}
	if !r.flatLanding(res) {
		return r.goTo(ctx, res, st)
	}
	r.reopenTerminal()
	if from != "" {
		if err := r.emitState(KindStateExited, from); err != nil {
			return err
		}
	}
	r.par = nil
	if err := r.enterOne(ctx, res.state, st); err != nil {
		return err
	}
	r.cur = res.state
	r.checkTerminal()
	return nil
}
