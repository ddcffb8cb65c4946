package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// goTo moves the machine to a resolved target: exit states up to the common
// ancestor, enter down to the target, descend initial:, running on_enter
// at each entered level. A target inside the active parallel state moves
// only the region that contains it.
func (r *runner) goTo(ctx context.Context, t target, st *step) error {
	r.t.noView = false // a later move renders again (resetRegions sets it)
	if t.exit != "" {
		return r.takeExit(t.exit)
	}
	dst := t.state
	if dst.Path == "" && r.statePath() != "" {
		was := r.place.cloned()
		r.t.emptyFrom = &was
	}
	r.reopenTerminal()
	if r.flatHop(dst) {
		r.cur, r.par = r.par.root, nil
	}
	if r.par != nil && dst.within(r.par.root) {
		return r.moveRegion(ctx, dst, st)
	}
	if r.par != nil && dst == r.par.root {
		return r.resetRegions(ctx, st)
	}
	from, leaving := r.cur, r.par != nil
	if leaving {
		from = r.par.root
		if !r.par.hop { // conformance par-leave
			r.t.emitsOnly = true
			defer func() { r.t.emitsOnly = false }()
		}
	}
	if leaving && !r.par.hop {
		r.holdEntered()
	}
	if err := r.moveFrom(ctx, from, dst, st); err != nil {
		r.t.entered = nil
		return err
	}
	if r.t.entered != nil {
		if err := r.releaseEntered(from); err != nil {
			return err
		}
	}
	if leaving && r.par != nil { // from one parallel configuration into another: as resetRegions (conformance par-leave-into-parallel)
		r.t.noView = !r.t.hop && r.t.transView == nil
	}
	return nil
}

// moveFrom exits from the leaf (or parallel root) from up to its common
// ancestor with dst and enters down to dst.
func (r *runner) moveFrom(ctx context.Context, from, dst *State, st *step) error {
	// an ancestor of the current leaf (or the bare compound itself) is
	// resolved to its initial leaf first: only the states below the two
	// leaves' common ancestor move (docs/compat/engine.md "An ancestor as
	// target"), also when that initial leaf is a parallel state entered
	// from outside it
	anc := commonAncestor(from, dst)
	if anc == dst && !dst.Parallel && (dst != from || r.bareCompound()) {
		leaf, err := r.initialLeaf(dst)
		if err != nil {
			return err
		}
		if (!leaf.Parallel || r.par == nil) && parallelAncestor(leaf) == parallelAncestor(dst) { // conformance ancestor-parallel-initial
			anc = commonAncestor(from, leaf)
			if err := r.exitUpTo(anc); err != nil {
				return err
			}
			return r.enterFrom(ctx, anc, leaf, st)
		}
	}
	if anc == dst && dst != from && dst.Parallel && r.par == nil { // conformance par-root-from-leaf
		return r.enterPartialRegions(ctx, dst, st)
	}
	if anc == dst {
		anc = dst.Parent
	}
	if err := r.exitUpTo(anc); err != nil {
		return err
	}
	return r.enterFrom(ctx, anc, dst, st)
}

// takeExit ends the session at @exit:name.
// exits.<name>.requires is a load-time check only (conformance probe 06).
func (r *runner) takeExit(name string) error {
	if err := r.exitUpTo(nil); err != nil {
		return err
	}
	return r.enterExit(name)
}

// enterExit enters the exit state of name, the active states already
// exited, and ends the session there.
func (r *runner) enterExit(name string) error {
	r.reach(ReachExit, r.m.exitPos[name])
	exitPath := "__exit__" + name
	if err := r.emitState(KindStateEntered, exitPath); err != nil {
		return err
	}
	r.note(Note{Kind: "end", State: exitPath, Text: "exit " + name})
	r.ended, r.outcome, r.exit = true, OutcomeExit, name
	return nil
}

// reopenTerminal reopens a session leaving the terminal state it rests on,
// which still takes its own intents (story-runtime §1.11).
func (r *runner) reopenTerminal() {
	if r.outcome == OutcomeTerminal {
		r.ended, r.outcome = false, ""
	}
}

// exitUpTo writes state_exited for every active state below anc, innermost
// first; a parallel configuration is exited as one coarse state_exited of
// its root and nothing above it (story-runtime §3.4; parExitOnly).
func (r *runner) exitUpTo(anc *State) error {
	if r.par != nil {
		return r.exitParallel()
	}
	return r.exitFrom(r.cur, anc)
}

// exitFrom writes state_exited from leaf up to below anc, innermost first.
func (r *runner) exitFrom(leaf, anc *State) error {
	for s := leaf; s != nil && s != anc; s = s.Parent {
		if ok, err := r.strayExit(s); ok || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if err := r.emitState(KindStateExited, s.Path); err != nil {
			return err
		}
	}
	return nil
}

// emitState writes the state_exited or state_entered (kind) of path.
func (r *runner) emitState(kind, path string) error {
	if kind == KindStateEntered && r.t.entered != nil {
		*r.t.entered = append(*r.t.entered, path)
		return nil
	}
	sp := path
	if r.t.noStatePath {
		sp = "" // a background completion's lines carry none, these too
	} else if sp == "" {
		sp = r.statePathForEvent() // the "" a rendered ".k" enters first is stamped as the turn's other events
	}
	return r.emitAt(sp, kind, map[string]any{"state": path})
}

// swapLeaf exits from leaf up to its common ancestor with dst, enters
// down to dst and its initial: chain, and returns the state entered last.
// A dst the leaf is in moves leaf to dst's initial leaf (conformance
// par-region-ancestor); only a parallel root is left and entered again.
func (r *runner) swapLeaf(ctx context.Context, leaf, dst *State, st *step) (*State, error) {
	anc := commonAncestor(leaf, dst)
	if anc == dst && dst.Parallel {
		anc = dst.Parent
	} else if anc == dst {
		pre, err := r.initialLeaf(dst)
		if err != nil {
			return nil, err
		}
		dst, anc = pre, commonAncestor(leaf, pre)
	}
	if err := r.exitFrom(leaf, anc); err != nil {
		return nil, err
	}
	for _, s := range pathDown(anc, dst) {
		if err := r.enterOne(ctx, s, st); err != nil {
			return nil, err
		}
	}
	return r.descend(ctx, dst, st)
}

// pathDown lists the states from below anc down to s, outermost first.
func pathDown(anc, s *State) []*State {
	var chain []*State
	for ; s != nil && s != anc; s = s.Parent {
		chain = append(chain, s)
	}
	slices.Reverse(chain)
	return chain
}

// moveRegion replaces the leaf of the region that contains dst.
func (r *runner) moveRegion(ctx context.Context, dst *State, st *step) error {
	pc := r.par
	old := pc.leafIn(pc.regionOf(dst))
	end, err := r.swapLeaf(ctx, old, dst, st)
	if err != nil {
		return err
	}
	pc.replace(old, end) // only that leaf (conformance par-emit-order u.yaml)
	r.par, r.cur = pc, end
	return nil
}

// descend enters dst's initial: chain down to a leaf, running on_enter.
func (r *runner) descend(ctx context.Context, dst *State, st *step) (*State, error) {
	s := dst
	for len(s.Children) > 0 && !s.Parallel {
		child, err := r.initialChild(s)
		if err != nil {
			return nil, err
		}
		if child == nil {
			break
		}
		// an unknown initial: leaf under a known grandchild (k5.7) enters
		// the states between first (conformance initial-template-unknown)
		var chain []*State
		for c := child; c != nil && c != s; c = c.Parent {
			chain = append(chain, c)
		}
		for _, c := range slices.Backward(chain) {
			if err := r.enterOne(ctx, c, st); err != nil {
				return nil, err
			}
		}
		s = child
	}
	return s, nil
}

func commonAncestor(a, b *State) *State {
	depth := map[*State]bool{}
	for s := a; s != nil; s = s.Parent {
		depth[s] = true
	}
	for s := b; s != nil; s = s.Parent {
		if depth[s] {
			return s
		}
	}
	return nil
}

// enterFrom enters every level from below anc down to dst, then dst's
// initial: chain. Each entered level runs its on_enter. A parallel state
// on the way enters every region (story-runtime §3.3).
func (r *runner) enterFrom(ctx context.Context, anc, dst *State, st *step) error {
	for _, s := range pathDown(anc, dst) {
		if err := r.enterOne(ctx, s, st); err != nil {
			return err
		}
		if s.Parallel && s == dst { // every region entered (story-runtime §3.3)
			return r.enterParallel(ctx, s, st)
		}
	}
	end, err := r.descend(ctx, dst, st)
	if err != nil {
		return err
	}
	if end.Parallel {
		return r.enterParallel(ctx, end, st)
	}
	r.cur = end
	r.checkTerminal()
	return nil
}

// enterParallel enters the regions of p (already entered) in order, each
// down its initial: chain.
func (r *runner) enterParallel(ctx context.Context, p *State, st *step) error {
	r.reopenTerminal() // entering every region leaves a terminal leaf (conformance partial-regions-reopen)
	pc := &parConf{root: p}
	for _, reg := range p.regions() {
		if err := r.enterOne(ctx, reg, st); err != nil {
			return err
		}
		end, err := r.descend(ctx, reg, st)
		if err != nil {
			return err
		}
		pc.set(end)
	}
	r.par, r.cur = pc, pc.leaves[0]
	r.checkTerminal()
	return nil
}

// checkTerminal ends the session on a terminal state; in a parallel state
// only the root counts (story-runtime §3.5).
func (r *runner) checkTerminal() {
	if s := r.terminalAt(); s != nil {
		r.note(Note{Kind: "end", State: s.Path, Text: "terminal " + s.Path})
		r.ended, r.outcome = true, OutcomeTerminal
	}
}

// terminalAt is the terminal state the machine rests on (a leaf, a
// parallel root, or a state with children it rests on flat, as an
// on_error landing; conformance terminal-flat-compound), or nil.
func (r *runner) terminalAt() *State {
	s := r.cur
	if r.par != nil {
		s = r.par.root
	}
	if s != nil && s.Terminal {
		return s
	}
	return nil
}

func (r *runner) enterOne(ctx context.Context, s *State, st *step) error {
	r.cur = s
	r.reach(ReachState, s.Pos)
	if err := r.emitState(KindStateEntered, s.Path); err != nil {
		return err
	}
	if len(s.Children) == 0 {
		r.note(Note{Kind: "enter", State: s.Path, Text: s.Path})
	}
	effs := s.OnEnter
	if r.t.emitsOnly {
		effs = slices.DeleteFunc(slices.Clone(effs), func(e *Effect) bool { return e.Emit == nil })
	}
	return r.runEffects(ctx, effs, st)
}

// initialChild renders s's initial: and returns that child; nil (no error)
// when s has no initial: (a compound without one rests on itself,
// story-runtime §3.1).
func (r *runner) initialChild(s *State) (*State, error) {
	if s.Initial == nil {
		return nil, nil
	}
	if c, ok := r.t.initials[s]; ok {
		return c, nil
	}
	name, err := s.Initial.render(r.targetEnv())
	if err != nil {
		return nil, fmt.Errorf("%s: initial of %q: %w", s.Pos, s.Path, err)
	}
	name = strings.TrimSpace(name)
	for _, c := range s.Children {
		if c.Name == name {
			return c, nil
		}
	}
	if s.Initial.templated() {
		// a templated initial: naming no child ("", a dotted name too):
		// upstream enters and rests on the raw path below s, each known
		// prefix entered on the way (conformance initial-template-unknown)
		if l := r.unknownLeaf(s.Path+"."+name, s); l != nil {
			return l, nil
		}
	}
	return nil, fmt.Errorf("%s: initial %q of %q names no child state", s.Pos, name, s.Path)
}
