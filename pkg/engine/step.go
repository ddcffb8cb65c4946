package engine

import (
	"context"
	"errors"
	"fmt"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
	"maps"
	"slices"
	"strings"
	"time"
)

// settle ends a walked step: the hops its emit_intent entries decided,
// then its queued host calls in order (story-runtime §2). A failed call
// with on_error drops the rest, lands the target and settles its step the
// same way (depth cap maxOnErrorDepth).
func (r *runner) settle(ctx context.Context, st *step) error {
	c := &redirectChain{}
	for {
		if done, err := r.settleEmits(ctx, st, c); done || err != nil {
			return err
		}
		if c.hops == 0 {
			c.origin, c.originAt = r.statePath(), r.cur
			if r.par != nil || r.exit != "" {
				c.originAt = nil // no post-bind pass from there (conformance cap-at-exit)
			}
		}
		if r.t.targetPre != nil && c.hops == 0 {
			r.t.targetWalk = r.world.Snapshot()
		}
		var rd *redirect
		var dropped bool
		var err error
		if r.t.synthetic {
			rd, dropped, err = r.dispatchSynthetic(ctx, st.calls)
		} else {
			rd, err = r.dispatchCalls(ctx, st.calls)
		}
		st.calls = nil
		if err != nil {
			return err
		}
		if dropped && len(c.nested) > 0 {
			// a landing's call failing into an on_error that names no
			// state fails upstream's nested dispatch: the chain is
			// swallowed, as a user turn's (conformance
			// synthetic-landing-call-fails, landing-call-stays)
			r.swallowed(c.origin, c.originAt)
			return nil
		}
		if rd == nil {
			if len(c.nested) > 0 && r.landingViewFails(ctx) {
				// a landing whose view fails is swallowed (conformance
				// mutate-landing-view-fails)
				r.swallowed(c.origin, c.originAt)
				return nil
			}
			return r.unwindRedirects(c.nested, c.to)
		}
		if done, err := r.takeRedirect(ctx, rd, st, c); done || err != nil {
			return err
		}
	}
}

// redirectChain is what settle carries from one on_error redirect to the next.
type redirectChain struct {
	hops     int
	origin   string   // where the step's hops left the machine
	originAt *State   // that state outside a parallel configuration
	nested   []string // the from of each redirect taken, for unwindRedirects
	to       string   // where the last redirect lands
	preLand  landingWorld
}

// settleEmits fires the step's pending emit_intent hops: a landing's
// through landingEmits (done when its chain failed and the turn is
// swallowed), any other after the held landing events are written.
func (r *runner) settleEmits(ctx context.Context, st *step, c *redirectChain) (done bool, err error) {
	emits := st.emits
	st.emits = nil
	if len(c.nested) == 0 || len(emits) == 0 {
		if err := r.flushHeld(c.preLand.held); err != nil {
			return true, err
		}
		c.preLand.held = nil
		return false, r.dispatchEmits(ctx, emits, 0, st)
	}
	swallowed, err := r.landingEmits(ctx, emits, st, c.preLand)
	if err != nil {
		return true, err
	}
	if swallowed {
		r.swallowed(c.origin, c.originAt)
		return true, nil
	}
	if r.exit == "" {
		c.to = r.statePath() // conformance bare-compound-target hop.yaml
	}
	return false, nil
}

// takeRedirect takes the on_error redirect rd of a failed call, or refuses it
// (the depth cap, a target that stays or names no state); done reports
// that the step is settled.
func (r *runner) takeRedirect(ctx context.Context, rd *redirect, st *step, c *redirectChain) (done bool, err error) {
	r.reach(ReachOnError, rd.e.onErrorPos)
	c.hops++
	if r.t.saidAtRedirect < 0 {
		r.t.saidAtRedirect = len(r.t.said)
	}
	if c.hops > maxOnErrorDepth+1 {
		// the sixth redirect (depth 5) is refused (story-runtime §2.4;
		// docs/compat/engine.md "Depth cap")
		r.swallowed(c.origin, c.originAt)
		return true, r.emit(KindHarnessError, map[string]any{"cap": maxOnErrorDepth, "depth": c.hops - 1,
			"message": "on_error redirect chain exceeded depth cap; staying at the originating state. A host call's on_error: arc is looping (likely the same host failing repeatedly).",
			"prior":   r.statePath(), "reason": "on_error.depth_cap_exceeded", "target": rd.e.OnError})
	}
	// the target is looked up as written: a {{ }} in it is never rendered,
	// so it names no state (conformance on-error-template-literal)
	res, err := r.resolveTarget(ctx, r.dispatchBase(rd.e.owner), rd.e.OnError, nil, false)
	if (err != nil || res.stay) && len(c.nested) > 0 {
		// swallowed as at the depth cap (conformance landing-call-stays)
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error " + rd.e.OnError + " in an on_error landing", Error: rd.err})
		r.swallowed(c.origin, c.originAt)
		return true, nil
	}
	// on_error "." or a target that names no state: the rest of the batch
	// is dropped, the step rests, and only a note says so (story-runtime §2.4)
	if err != nil {
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: fmt.Sprintf("on_error target state %q not found", rd.e.OnError), Error: err.Error()})
		// upstream's turn.end has no view, as after on_error ".": the
		// rig's, from the replayed world (conformance
		// on-error-dot-replayed-view, `nf`)
		r.t.dotStay = true
		r.unsubmit()
		return true, nil
	}
	if res.stay {
		r.t.dotStay = true
		r.unsubmit()
		return true, nil
	}
	from := r.statePath()
	if r.t.redirectErr == "" && r.t.rerender && !r.t.submitOnly {
		// the batch had bound: the view renders again; a submission that
		// bound nothing keeps the first render (conformance
		// submit-then-redirect-empty)
		r.t.first = nil
	}
	r.t.redirectErr, r.t.rerender, r.t.applied, r.t.dropSay, r.t.submitOnly = rd.err, true, true, true, false
	if origin := r.t.chainOrigin; origin != "" && len(c.nested) == 0 && r.exit == "" {
		// a job's on_complete chain: upstream measures the redirect from
		// the state the completion began in, wherever the chain's hops
		// took the machine (conformance oncomplete-redirect-origin)
		if res.state != nil && r.landTo(res) == origin {
			return true, r.unwindRedirects(append(c.nested, from), r.landTo(res))
		}
	} else if res.state != nil && r.par == nil && r.cur == res.state && r.exit == "" {
		// a redirect to the resting state moves nothing, but is a
		// redirect (conformance bare-compound-target, redirect-self-nested)
		return true, r.unwindRedirects(append(c.nested, from), r.landTo(res))
	}
	c.to = r.landTo(res)
	c.nested = append(c.nested, from)
	if len(c.nested) == 1 && r.t.targetWalk != nil {
		r.t.landView = r.staleView()
	}
	var failed bool
	c.preLand, failed, err = r.landRedirect(ctx, res, from, rd, st)
	r.t.landView = nil
	if err != nil || failed {
		if failed { // conformance on-error-landing-enter-fails
			r.swallowed(c.origin, c.originAt)
		}
		return true, err
	}
	return false, nil
}

// landRedirect takes an on_error redirect from the state from to res: its
// machine.transition, then the landing, whose events are held in pre
// until its emit_intent chain has gone through. failed reports that the
// landing's on_enter failed (swallowLanding); err is a trace or an
// interrupt. A step that had reached an exit or terminal state is taken
// back.
func (r *runner) landRedirect(ctx context.Context, res target, from string, rd *redirect, st *step) (pre landingWorld, failed bool, err error) {
	left := r.statePath()
	r.ended, r.outcome, r.exit = false, "", ""
	if err := r.emit(KindTransition, map[string]any{"from": from, "intent": "on_error", "to": r.landTo(res)}); err != nil {
		return pre, false, err
	}
	r.note(Note{Kind: "on_error", State: from, Text: "on_error → " + res.describe(), Error: rd.err})
	pre = r.landingWorld() // st is empty: the landing queues its own step there
	prev, slots := r.t.tentative, r.slots
	r.t.tentative = &pre.held
	// the landing's on_enter runs without the turn's slots (conformance
	// on-error-landing-slots)
	r.slots = map[string]any{}
	err = r.land(ctx, res, st, left)
	r.t.tentative, r.slots = prev, slots
	switch {
	case err == nil:
		return pre, false, nil
	case isTraceErr(err) || ctx.Err() != nil:
		if ferr := r.flushHeld(pre.held); ferr != nil {
			return pre, false, ferr
		}
		return pre, false, err
	}
	r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error landing's on_enter failed", Error: err.Error()})
	return pre, true, r.swallowLanding(pre, pre.held)
}

// unwindRedirects writes one more machine.transition per nested on_error
// level, innermost first, to the final target, as upstream's nested
// dispatch does as it returns (conformance redirect-view k.yaml, j.yaml).
func (r *runner) unwindRedirects(froms []string, to string) error {
	for i := len(froms) - 1; i >= 1; i-- {
		if err := r.emit(KindTransition, map[string]any{"from": froms[i], "intent": "on_error", "to": to}); err != nil {
			return err
		}
	}
	return nil
}

// dispatchCalls dispatches queued host calls in order, each with r.cur and
// r.slots as the chain reached it. The first failure with on_error stops
// the queue and returns the redirect.
func (r *runner) dispatchCalls(ctx context.Context, calls []pendingCall) (*redirect, error) {
	cur, slots := r.cur, r.slots
	defer func() {
		if r.cur != nil {
			r.cur = cur
		}
		r.slots = slots
	}()
	if len(calls) == 0 {
		return nil, nil
	}
	r.t.dispatchState, r.t.dispatching = r.statePath(), true // a background job's origin (story-runtime §2.1)
	defer func() { r.t.dispatchState, r.t.dispatching = "", false }()
	r.t.batchCost = 0
	r.t.batchBound = nil
	if slices.ContainsFunc(calls, func(pc pendingCall) bool { return len(pc.e.Bind) > 0 }) {
		// even if it is never dispatched (conformance say-empty-view h.yaml)
		r.t.rerender, r.t.dropSay = true, true
	}
	defer func() { r.t.batchBound = nil }()
	for _, pc := range calls {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("run interrupted: %w", err)
		}
		r.cur, r.slots = pc.state, pc.slots
		r.t.renderWorld = r.overlayBatch(pc.world) // for the rendering of its with: only
		r.t.walkWorld = pc.world
		r.seedDispatch()
		rd, err := r.invoke(ctx, pc.e)
		r.t.renderWorld, r.t.walkWorld, r.t.fellBack = nil, nil, false
		if err != nil {
			return rd, err
		}
		if rd != nil {
			return rd, r.foldCost()
		}
	}
	return nil, r.foldCost()
}

// overlayBatch is the world a queued call's with: renders against: its
// walk-time snapshot with the batch's earlier binds laid over it
// (story-runtime §2.1); nil for nil (the live world).
func (r *runner) overlayBatch(snap World) World {
	if snap == nil {
		return nil
	}
	w := snap.Snapshot()
	for _, k := range r.t.batchBound {
		setPath(w, k, jsonvalue.Normalize(getPath(r.world, k)))
	}
	return w
}

// foldCost folds the agent cost of the batch just dispatched into the
// world (story-runtime §2.6): turn_cost_usd is the batch's sum,
// session_cost_usd grows by it; an event only when a value changes.
func (r *runner) foldCost() error {
	sum := r.t.batchCost
	r.t.batchCost = 0
	set := map[string]any{}
	if cur, _ := r.world[story.WorldTurnCostUSD].(float64); cur != sum || r.world[story.WorldTurnCostUSD] == nil && sum > 0 {
		if _, declared := r.world[story.WorldTurnCostUSD]; declared || sum > 0 {
			r.world[story.WorldTurnCostUSD] = sum
			set[story.WorldTurnCostUSD] = sum
		}
	}
	if sum > 0 {
		prev, _ := r.world[story.WorldSessionCostUSD].(float64)
		r.world[story.WorldSessionCostUSD] = prev + sum
		set[story.WorldSessionCostUSD] = prev + sum
	}
	if len(set) == 0 {
		return nil
	}
	return r.emit(KindWorldUpdate, map[string]any{"set": set})
}

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
	res, err := r.armTarget(ctx, owner, arm, depth > 0)
	if err != nil {
		return fmt.Errorf("%s: intent %q: %w", arm.Pos, intent, err)
	}
	defer r.pinInitials(res, owner)()
	if err := r.runEffects(ctx, arm.Effects, st); err != nil {
		return err
	}
	res = r.ancestorStay(res, owner)
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
func (r *runner) resolveTarget(ctx context.Context, owner *State, lit string, t *text, hop bool) (target, error) {
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
	path, err := resolvePath(owner, s)
	if err != nil {
		base := ""
		if owner != nil {
			base = owner.Path
		}
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
// resolution").
func (r *runner) dispatchBase(owner *State) *State {
	switch {
	case r.par != nil:
		if reg := r.par.regionOf(owner); reg != nil {
			if l := r.par.leafIn(reg); l != nil {
				return l
			}
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

// env builds the expression/template environment.
func (r *runner) env(slots map[string]any, extra map[string]any) map[string]any {
	ce := r.callEnv()
	ce.Slots = slots
	env := callEnv(r.m.Dir, ce)
	maps.Copy(env, extra)
	return env
}

// callEnv is the environment of the current step (world, slots, state).
func (r *runner) callEnv() CallEnv {
	ce := CallEnv{World: r.world, Slots: r.slots, Render: r.evalCtx()}
	if r.t.landView != nil {
		ce.World = r.t.landView
	}
	if r.cur != nil {
		ce.StatePath = r.cur.Path
		ce.StateDescription = r.cur.Description
	}
	return ce
}

func (r *runner) emit(kind string, payload any) error {
	return r.emitAt(r.statePathForEvent(), kind, payload)
}

func (r *runner) emitAt(statePath, kind string, payload any) error {
	ev := Event{Turn: r.turn, Kind: kind, StatePath: statePath, TS: r.now(), Payload: payload}
	if r.t.walk.add(ev) {
		return nil
	}
	return r.write(ev)
}

// write records ev in the turn and sends it to the sink (or holds it
// while a post-bind pass is tentative).
func (r *runner) write(ev Event) error {
	if r.t.tentative != nil {
		*r.t.tentative = append(*r.t.tentative, ev)
		return nil
	}
	r.t.events = append(r.t.events, ev)
	if ev.Kind == KindWorldUpdate {
		r.noteWritten(ev.Payload)
	}
	if r.so.Sink == nil {
		return nil
	}
	if err := r.so.Sink.Emit(ev); err != nil {
		return &traceErr{err: err}
	}
	return nil
}

func (r *runner) now() time.Time { return r.clock.Now() }

func (r *runner) note(n Note) {
	if r.so.Notes != nil {
		r.so.Notes(n)
	}
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
