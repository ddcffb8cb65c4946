package engine

import (
	"context"
	"fmt"
	"slices"
)

// pickArm tries the arms in order (story-runtime §1.5); nil with the hint
// when every guard fails.
func (r *runner) pickArm(arms []*Transition, intent string, env map[string]any) (*Transition, string, error) {
	hint := ""
	for _, a := range arms {
		if a.Default || a.When == nil {
			r.reachArm(a)
			return a, "", nil
		}
		ok, err := a.When.eval(env)
		if err != nil {
			return nil, "", fmt.Errorf("%s: intent %q: %w", a.Pos, intent, err)
		}
		if ok {
			r.reachArm(a)
			return a, "", nil
		}
		if hint == "" && a.Hint != "" {
			hint = a.Hint
		}
	}
	return nil, hint, nil
}

// fire handles one intent at the current configuration (depth 0: the
// user's; deeper: emit_intent hops), its calls added to st.
func (r *runner) fire(ctx context.Context, intent string, given map[string]any, depth int, st *step) error {
	slots := templateSlots(given)
	r.t.typed = intent // machine.intent_accepted keeps it (story-runtime §1.4)
	if r.par != nil {
		if depth == 0 {
			return r.fireParallel(ctx, intent, given, st)
		}
		return r.fireAtParallelRoot(ctx, intent, slots, depth, st)
	}
	asked := intent // an emit_intent hop's error names it as written (conformance emit-intent-error-as-written)
	intent = aliasFrom(r.cur, intent)
	arms, owner := lookupFrom(r.cur, intent)
	if arms == nil {
		if depth > 0 {
			return r.noArmMatched(asked)
		}
		return r.checkAllowed(intent)
	}
	r.slots = slots
	arm, hint, err := r.pickArm(arms, intent, r.env(slots, nil))
	if err != nil {
		return err
	}
	if arm == nil {
		if depth > 0 {
			return r.noArmMatched(asked)
		}
		msg := fmt.Sprintf("intent %q in state %q: every guard failed", intent, r.statePath())
		if hint != "" {
			msg += " (" + hint + ")"
		}
		if r.bareCompound() { // conformance start-flat
			msg = fmt.Sprintf("no transition matched for intent %q in state %q", intent, r.statePath())
		}
		return &Rejection{Code: CodeGuardFailed, Intent: intent, State: r.statePath(), GuardHint: hint, Message: msg}
	}
	return r.take(ctx, intent, given, arm, owner, depth, st)
}

// templateSlots is what templates see of an intent's slots: given, or an
// empty map where the events carry given as null (story-runtime §1.3).
func templateSlots(given map[string]any) map[string]any {
	if given == nil {
		return map[string]any{}
	}
	return given
}

// noArmMatched is the error of an emit_intent hop that nothing takes.
func (r *runner) noArmMatched(intent string) error {
	return fmt.Errorf("emit_intent %q at %q: no transition arm matched (intent has no on: handler, or all guards failed)", intent, r.statePath())
}

// take applies a chosen arm: its effects, the transition, the entries
// (their calls queued on st), then the hops its chain decided.
func (r *runner) take(ctx context.Context, intent string, slots map[string]any, arm *Transition, owner *State, depth int, st *step) error {
	if err := r.emit(KindIntentAccepted, map[string]any{"intent": r.t.acceptedName(intent), "slots": slots}); err != nil {
		return err
	}
	if arm.View != nil && depth == 0 {
		r.t.transView = arm.View
	}
	from := r.statePath()
	mine, err := r.holdWalk(st, func() error { return r.walkArm(ctx, intent, slots, arm, owner, depth, from, st) })
	if err != nil {
		return err
	}
	return r.dispatchEmits(ctx, mine, depth, st)
}

// holdWalk runs walk with its events held (heldWalk) and st's emits set
// aside, writes the events, and returns the emits the walk decided.
func (r *runner) holdWalk(st *step, walk func() error) ([]pendingEmit, error) {
	prev := st.emits
	st.emits = nil
	r.t.walk.start()
	werr := walk()
	r.t.walk.stop()
	mine := st.emits
	st.emits = prev
	if err := r.flushHeld(r.t.walk.take()); err != nil {
		return nil, err
	}
	return mine, werr
}

// walkArm runs a chosen arm's effects and move with the events held.
func (r *runner) walkArm(ctx context.Context, intent string, slots map[string]any, arm *Transition, owner *State, depth int, from string, st *step) error {
	res, unpin, err := r.startArm(ctx, owner, arm, depth > 0, "intent", intent, st)
	if err != nil {
		return err
	}
	defer unpin()
	r.t.hop = depth > 0
	r.holdTransition(from, intent, slots, res, depth)
	if res.regions {
		return r.enterPartialRegions(ctx, res.state, st)
	}
	if !res.stay {
		if r.selfReentry(res) && depth > 0 {
			// an emit hop back to the current leaf runs no on_enter (§1.9 step 4)
		} else if r.selfReentry(res) {
			// only on_enter re-runs (story-runtime §1.8)
			if err := r.runEffects(ctx, r.cur.OnEnter, st); err != nil {
				return err
			}
		} else if err := r.goTo(ctx, res, st); err != nil {
			return err
		}
	} else if r.bareParallel() {
		return r.enterParallel(ctx, r.cur, st)
	} else if r.bareCompound() {
		end, err := r.descend(ctx, r.cur, st)
		if err == nil && end.Parallel { // every region entered (conformance bare-compound-parallel)
			err = r.enterParallel(ctx, end, st)
		}
		return err
	}
	return nil
}

// holdTransition heads a walk's held events with its machine.transition
// (synthetic for an emit hop) and returns the payload, its to correctable.
func (r *runner) holdTransition(from, intent string, slots map[string]any, res target, depth int) map[string]any {
	tr := map[string]any{"from": from, "intent": intent, "slots": slots, "to": r.predictTo(res)}
	if depth > 0 {
		tr["synthetic"] = true
	}
	r.noteTransition(finite(slots) != nil)
	r.t.walk.setHead(Event{Turn: r.turn, Kind: KindTransition, StatePath: r.statePathForEvent(), TS: r.now(), Payload: tr})
	return tr
}

// statePathForEvent is the state_path of a turn's event: the state the
// turn started in, as upstream stamps it (flow-format.md §6.5); none for
// a background completion's.
func (r *runner) statePathForEvent() string {
	if r.t.noStatePath {
		return ""
	}
	if r.turnState == "" && r.cur != nil {
		return r.cur.Path
	}
	return r.turnState
}

// selfReentry reports whether res resolves (after initial: descent) to the
// current leaf.
func (r *runner) selfReentry(res target) bool {
	if res.state == nil || r.par != nil || r.cur == nil || res.state != r.cur && !r.cur.within(res.state) {
		return false
	}
	// a bare compound descends (conformance bare-compound-target); one
	// whose initial: fails counts as re-entered
	leaf, err := r.initialLeaf(res.state)
	return leaf == r.cur || err != nil && res.state == r.cur
}

// lookupFrom finds the handler list for intent on s, then its ancestors
// (intent name first, then "*"). A level that has handlers is final.
func lookupFrom(s *State, intent string) ([]*Transition, *State) {
	for ; s != nil; s = s.Parent {
		if arms, ok := s.On[intent]; ok && len(arms) > 0 {
			return arms, s
		}
		if arms, ok := s.On["*"]; ok && len(arms) > 0 {
			return arms, s
		}
	}
	return nil, nil
}

// aliasFrom maps a bare intent name of an imported child to its folded
// name (story-runtime §1.4 step 1): the first state from s up whose
// aliases know it.
func aliasFrom(s *State, intent string) string {
	for ; s != nil; s = s.Parent {
		if len(s.On[intent]) > 0 {
			return intent
		}
		if a, ok := s.Aliases[intent]; ok {
			return a
		}
	}
	return intent
}

// available lists the intent names s and its ancestors handle, sorted.
func available(s *State) []string {
	var out []string
	for ; s != nil; s = s.Parent {
		for k := range s.On {
			if k != "*" {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
