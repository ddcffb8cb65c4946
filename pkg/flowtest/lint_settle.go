package flowtest

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// A turn on the orchestrator path whose every step is certain is
// followed as the engines run it (story-runtime §1.7–§1.9, §2.3;
// conformance lint-settle): the arm its intent takes, its effects and
// the on_enter of the states it enters, each entry's when: judged on the
// world as the chain has left it; the emits they decide, dispatched
// depth-first, a hop entering only a state other than the one it fires
// at; then the queued calls, answered by the fixture's stubs or host
// cassette (lint_cassette.go) and bound; then the post-bind pass, which
// decides the resting state's own on_enter emits again on the bound
// world with empty slots, fires them and dispatches their calls, round
// after round. That is how a room that calls out, binds, then routes on
// the answer (conflict-resolve's conflict: once: calls, then guarded
// emits) leaves the story in one turn, and a later turn's intent is
// refused there.
//
// A background job it submits, and the turn's advance_clock landing it,
// are followed too (lint_jobs_land.go).
//
// Anything not certain gives the walk up, and the turn is judged as
// before: a guard on an uncertain value or slot, a call no stub
// certainly answers, a redirect the walk does not follow (redirect), a
// templated target whose text is not certain (renderedLeaf), a templated
// emit name, a job lint_jobs_land.go does not
// follow, an effect-level agent:, inline effects, a parallel state, a
// decider: human gate or a staged fixture, or a walk past the engines'
// caps.

// maxSettleHops bounds the hops one walk follows (the engines cap the
// depth of a chain, not its breadth).
const maxSettleHops = 64

// maxSettleEmitDepth and maxSettleRounds are the engines' caps on an
// emit chain's depth and the post-bind pass's rounds (story-runtime
// §1.9): the walk gives up where they would cut it.
const (
	maxSettleEmitDepth = 24
	maxSettleRounds    = 4
)

// settleWalk is one followed turn: where the machine is (cur; nil once
// it left through exit), the calls queued and not yet dispatched.
type settleWalk struct {
	l     *fixtureLint
	cur   *story.State
	exit  string
	calls []*story.Effect
	hops  int
	// fatal: the walk gave up on a hop that certainly fails (an emit
	// after an exit, or one no arm takes): fatal to a turn, while a
	// post-bind round is only discarded
	fatal bool
	// discarded names the emits of a post-bind round that failed, and
	// discardedWhy why, for messages
	discarded, discardedWhy string
	// setFailed: the walk stopped at a set: that certainly fails to render
	// (knownWorld.setFails): fatal to the chain it is in
	setFailed bool
	// swallowedAt: the on_error landing the walk rests on, swallowed
	// (landingSwallowed)
	swallowedAt string
	// dropped counts the completion turns dropped whole (land)
	dropped int
	// preTarget: the world a job's chain left before its target's move
	// (onComplete), which a failing move leaves in place (land)
	preTarget *knownWorld
	// turnBatch: the user turn's own batch is being dispatched (not a
	// post-bind round's, nor a landing's)
	turnBatch bool
	// redirected: a failing call's on_error moved the machine to another
	// state (redirect)
	redirected bool
	// landed counts the background jobs the walk landed, submitted those
	// it submitted that upstream stores, unstoredJobs the others
	// (lint_jobs_land.go, lint_jobs_fewer.go)
	landed, submitted, unstoredJobs int
	// chainOrigin: while a job's on_complete chain runs its body (its
	// emit hops too), the job's origin, which a job the hop's on_enter
	// submits takes as its own (engine jobs.go submit; conformance
	// jobs-due-neighbours chainhop: stale once it lands)
	chainOrigin string
	// synthBound: the keys the calls of a job's completion turn bound so
	// far (land), made uncertain where its view may fail (viewSure)
	synthBound []string
	// landing: a job's completion turn is being followed; risky: an
	// effect of it may fail, which posts no notice (lint_inbox.go)
	landing, risky bool
	// refused: the queued calls a handler certainly refuses
	// (lint_slot_uint.go)
	refused map[*story.Effect]refusedCall
	// unstored: the queued background calls whose with: certainly
	// renders a NaN or an infinity (lint_jobs_fewer.go)
	unstored map[*story.Effect]bool
}

// settled follows t, fired at r with its intent reaching arc, when every
// step is certain, and returns where it rests; the known world becomes
// the one the turn leaves. ok is false (and the known world untouched)
// when some step is not certain.
func (l *fixtureLint) settled(t *Turn, r rest, arc string) (rest, bool) {
	if !l.settleable(t, r, arc) || !l.steps.spend(1+len(l.world.vals)+len(l.world.dirty)) {
		return rest{}, false
	}
	before, jobs, now, inbox := l.world, l.jobs, l.now, l.inbox
	l.world = before.clone()
	w := &settleWalk{l: l, cur: r.at}
	ok, redirected := w.fire(arc, t, 0, true), false
	if ok {
		w.turnBatch = true
		ok, redirected = w.dispatch()
		w.turnBatch = false
	}
	if ok && !redirected {
		ok = w.postBind()
	}
	if ok && t.HasAdvance {
		ok = w.cur == nil || l.ix.plainLeaf(w.cur.Path) != nil
		ok = ok && w.advance(t.AdvanceClock, w.cur != nil && restArms(w.cur) && !w.redirected)
	}
	if ok && w.cur != nil {
		ok = l.ix.walkRest(w.cur) || w.swallowedAt == w.cur.Path
	}
	if !ok {
		l.world, l.jobs, l.now, l.inbox = before, jobs, now, inbox
		return rest{}, false
	}
	end := "__exit__" + w.exit
	if w.cur != nil {
		end = w.cur.Path
	}
	if t.HasAdvance {
		l.partialAdvance(t)
	}
	l.jobsAtMost(t, jobs, w)
	l.stepped, l.walked, l.advanced = true, true, t.HasAdvance
	if t.ExpectState != nil && *t.ExpectState != end && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q, fired at %q (where %s), ends at %q%s: every step on the way is certain (the arms taken, the when: of each effect and emit judged on the world the chain leaves, the calls answered by this fixture's %s and bound, the post-bind pass over the resting state's on_enter emits): the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, *t.ExpectState, t.Intent.Name, r.at.Path, r.from, end, w.note(), l.answerer(), end)
		return rest{}, true
	}
	from := fmt.Sprintf("turns[%d] %q, fired at %q (where %s), ends there%s, every step on the way certain (its calls answered by this fixture's %s, the post-bind pass followed)", t.Index, t.Intent.Name, r.at.Path, r.from, w.note(), l.answerer())
	if w.cur == nil {
		return rest{exit: w.exit, from: from}, true
	}
	if !l.ix.walkRest(w.cur) {
		return rest{}, true // a region leaf entered flat: what a later turn finds is not followed
	}
	// the turn ended normally: the resting state's timeout is armed
	// afresh, unless it is terminal (conformance lint-settle m); after a
	// redirect that is not followed, or an advance, it is not judged
	return rest{at: w.cur, from: from, armed: restArms(w.cur) && !w.l.ix.isUnknown(w.cur) && !w.redirected && !t.HasAdvance}, true
}

// settleable reports whether t may be followed at all.
func (l *fixtureLint) settleable(t *Turn, r rest, arc string) bool {
	ix, fx := l.ix, l.fx
	if l.world == nil || r.at == nil || len(r.alt) > 0 || arc == "" || !fx.Orchestrated() || !l.intentJudged(t, r.at, arc) {
		return false
	}
	if (ix.background || t.HasAdvance) && l.jobsLost {
		return false // a job not followed may land (lint_jobs_land.go)
	}
	if ix.unfolded || inParallel(r.at) || (fx.Mode != "" && fx.Mode != "oneshot") {
		return false
	}
	for _, s := range ix.byPath {
		if s.Decider() == "human" {
			return false
		}
	}
	return true
}

// fire takes the arm arc reaches at w.cur (t's slots judged; nil: a
// hop, whose slots are not), runs its effects and the on_enter of the
// states it enters, then dispatches the emits they decided.
func (w *settleWalk) fire(arc string, t *Turn, depth int, first bool) bool {
	ix := w.l.ix
	w.hops++
	if !w.spend(1) {
		return false
	}
	if w.cur == nil {
		w.fatal = true // an emit after an exit finds no arm
		return false
	}
	if depth > maxSettleEmitDepth || w.hops > maxSettleHops {
		return false
	}
	guard := w.l.guardOf(t)
	n, a := chosenArm(w.cur, arc, guard)
	if a == nil {
		w.fatal = noArmTakes(w.cur, arc, guard)
		return false
	}
	if len(a.Emit()) > 0 && inParallel(n) {
		return false
	}
	tt := strings.TrimSpace(a.Target)
	var rendered *story.State // a templated target, rendered before the effects run
	if story.IsTemplated(tt) {
		if rendered = w.renderedLeaf(n, tt, a, t); rendered == nil {
			return false
		}
	}
	var emits []string
	if !w.effects(a.Effects, t, &emits) {
		return false
	}
	switch {
	case tt == "" || tt == ".":
		if ix.isUnknown(w.cur) {
			return false // a stay on a path the story does not hold: not followed
		}
		if n != w.cur && !w.ancestorStay(n, t, &emits) {
			return false
		}
	case strings.HasPrefix(tt, "@exit:"):
		w.cur, w.exit = nil, strings.TrimPrefix(tt, "@exit:")
	default:
		dest := rendered
		if dest == nil {
			p, err := story.ResolvePath(n.Path, tt)
			if err != nil {
				return false
			}
			dest = ix.landingLeaf(p)
		}
		if dest == nil {
			return false
		}
		entered, ok := w.enter(dest, first)
		if !ok {
			return false
		}
		w.cur = dest
		for _, s := range entered {
			if !w.effects(s.OnEnter, t, &emits) {
				return false
			}
		}
	}
	for _, name := range emits {
		if !w.fire(cmp.Or(ix.aliasOf(w.cur, name), name), nil, depth+1, false) {
			return false
		}
	}
	return true
}

// note says, for a message, that a redirect was followed or a post-bind
// round discarded.
func (w *settleWalk) note() string {
	switch {
	case w.swallowedAt != "":
		return " (a failing call's on_error lands on it, and a set: of its on_enter fails to render: the landing is swallowed)"
	case w.redirected:
		return " (a failing call's on_error redirects it)"
	case w.discarded != "":
		return fmt.Sprintf(" (the post-bind round firing %s fails, %s, and is discarded)", w.discarded, w.discardedWhy)
	}
	return ""
}

// noArmTakes reports whether arc certainly finds no arm at s: none, or
// every one's when: certainly false.
func noArmTakes(s *story.State, arc string, guard func(string) (bool, bool)) bool {
	_, arms := armsOf(s, arc)
	for _, a := range arms {
		if a == nil || a.When == "" || a.Default() {
			return false
		}
		if v, known := guard(a.When); !known || v {
			return false
		}
	}
	return true
}

// settleEntered is the states whose on_enter a move from cur to dest
// runs, outermost first: those above dest below the deepest it shares
// with cur; on the turn's own arm an explicit move to cur re-enters it
// (its on_enter alone), a hop's does not (story-runtime §1.8, §1.9).
func settleEntered(cur, dest *story.State, first bool) []*story.State {
	if dest == cur {
		if first {
			return []*story.State{dest}
		}
		return nil
	}
	from := map[*story.State]bool{}
	for s := cur; s != nil; s = s.Parent {
		from[s] = true
	}
	var out []*story.State
	for s := dest; s != nil && !from[s]; s = s.Parent {
		out = append(out, s)
	}
	slices.Reverse(out)
	return out
}

// landingLeaf is the leaf a move to p rests on (a compound's literal
// initial:, descended), when it is a leaf outside any parallel state.
func (ix *storyIndex) landingLeaf(p string) *story.State {
	d := ix.byPath[p]
	for d != nil && len(d.Children) > 0 {
		if d.Type != "compound" || d.Initial() == "" || story.IsTemplated(d.Initial()) {
			return nil
		}
		d = ix.byPath[d.Path+"."+d.Initial()]
	}
	if d == nil {
		return nil
	}
	return ix.plainLeaf(d.Path)
}

// effects runs effs in order on the known world (story-runtime §1.7):
// an entry whose when: is false is skipped, else the first of set,
// increment, say and invoke runs (a set of a literal, or of a template
// the known world renders, is certain, any other write is not; a set
// that may fail to render gives the walk up, one that certainly fails
// is fatal (setFailed: land, landingSwallowed and postBind follow it as
// upstream swallows it); a call is queued unless
// once: skips it), then its emit_intent is decided onto emits.
func (w *settleWalk) effects(effs []*story.Effect, t *Turn, emits *[]string) bool {
	kw := w.l.world
	if t != nil && !kw.noSlots {
		kw.slotOf = w.l.turnSlot(t) // a set: may read the turn's slots (conformance lint-set-slots)
		defer func() { kw.slotOf = nil }()
	}
	for _, e := range effs {
		if e == nil {
			continue
		}
		if !w.entry(e) {
			return false
		}
		// an entry whose when: is false is skipped whatever it holds
		// (conformance settle-when-first)
		fires, known := w.fires(e, t)
		if !known {
			return false
		}
		if !fires {
			continue
		}
		if e.Target() != "" || e.Agent() != "" || e.Background() && !jobCall(e) || len(e.OnComplete()) > 0 && !e.Background() || e.Selection() != nil || len(e.Effects()) > 0 {
			return false
		}
		if w.landing {
			w.noteChainRisk(e, kw)
		}
		ok, cached := w.effectKind(e, kw, t)
		if !ok {
			return false
		}
		// a call once: skips takes its entry's emit_intent with it; an
		// on_enter's is decided again by the post-bind pass (conformance
		// once-cached-emit)
		if name := strings.TrimSpace(e.EmitIntent()); name != "" && !cached {
			if story.IsTemplated(name) || slotsMayLoseHop(e) {
				return false
			}
			*emits = append(*emits, name)
		}
	}
	return true
}

// effectKind runs the one kind an entry holds (set > increment > say >
// invoke); cached: its call is one once: skips. t is the user turn whose
// chain runs it (nil in a hop or a completion turn).
func (w *settleWalk) effectKind(e *story.Effect, kw *knownWorld, t *Turn) (ok, cached bool) {
	switch {
	case len(e.Set) > 0:
		for _, kv := range e.Set {
			if strings.Contains(kv.Key, ".") || story.IsTemplated(kv.Key) {
				return false, false
			}
			if !kw.setRenders(kv.Value) {
				// a set that may fail fails the chain (conformance
				// lint-set-fails); one that certainly does is fatal
				w.setFailed = kw.setFails(kv.Value)
				w.fatal = w.fatal || w.setFailed
				return false, false
			}
		}
		kw.applySet(e, true) // every value rendered on the world before the block
	case len(e.Increment()) > 0:
		kw.applyIncrement(e, true)
	case e.Say != "":
	case e.Invoke != "":
		if certain, _ := kw.withRenders(e); !certain {
			// a with: that may fail to render fails the call, or in a
			// completion turn the move (conformance oncomplete-move-fails
			// f1, f4); upstream renders it as the machine walks the
			// entry, before any bind of the batch lands, and drops a
			// post-bind hop or a landing that fails so (conformance
			// with-walk-error): not followed
			return false, false
		}
		for _, kv := range e.Bind() {
			if strings.Contains(kv.Key, ".") || story.IsTemplated(kv.Key) {
				return false, false
			}
		}
		runs, known := kw.onceRuns(e)
		if !known {
			return false, false
		}
		if !runs {
			return true, true
		}
		if !w.queue(e, t) {
			return false, false
		}
	}
	return true, false
}

// dispatch answers the queued calls in order and binds them (a domain
// error's data too). A failing call whose on_error names the state the
// machine rests in is a redirect that moves nothing: the rest of the
// batch is dropped and no post-bind pass follows (story-runtime §2.4,
// conformance redirect-self-nested); one naming another state is
// followed there (redirect). A call whose answer is uncertain, or a
// redirect redirect does not follow, gives the walk up.
func (w *settleWalk) dispatch() (ok, redirected bool) {
	return w.dispatchAt(0)
}

// dispatchAt is dispatch in a redirect depth deep: a redirect to another
// state is followed there (redirect).
func (w *settleWalk) dispatchAt(depth int) (ok, redirected bool) {
	kw := w.l.world
	calls := w.calls
	w.calls = nil
	for _, e := range calls {
		kw.seedIDE() // before each dispatch (lint_world_seed.go)
		if e.Background() {
			if !w.submit(e) {
				return false, false
			}
			continue
		}
		a := w.answer(e)
		if !a.known || !w.bound(e, a.data) {
			return false, false
		}
		kw.dirty[story.WorldLastError] = true
		kw.dirty[story.WorldHostError] = true
		if a.binds {
			kw.bind(e, a.data)
		}
		if a.err != "" && e.OnError() != "" {
			if w.cur == nil {
				return false, true
			}
			if namesNoState(e.OnError()) {
				// the redirect is dropped with the rest of the batch and
				// the step rests where the call was made; in a landing the
				// chain is swallowed, which is not followed (story-runtime
				// §2.4, conformance on-error-untrimmed). The user turn's
				// post-bind pass then runs as after a call with no
				// on_error (conformance postpass-first-world tmpl); after
				// a post-bind round's call it is not probed
				w.redirected = true
				return depth == 0, !w.turnBatch
			}
			p, literal := redirectPath(e.OnError())
			if literal && p == w.cur.Path {
				return true, true
			}
			w.redirected = true
			return literal && w.redirect(p, depth), true
		}
	}
	return true, false
}

// maxSettleRedirects bounds the redirects one batch follows, below the
// engines' on_error depth cap (story-runtime §2.4).
const maxSettleRedirects = 4

// redirect follows a failing call's on_error to the state at p
// (story-runtime §2.4; conformance lint-settle-redirect): entered flat,
// with no initial descent (only a plain leaf is followed), its own
// on_enter run and the emits it decides fired, then the calls they queued
// dispatched as a batch of their own; no post-bind pass follows. A leaf
// of a parallel region is entered flat too, the machine resting on that
// one path (no other region entered, conformance lint-set-fails k, l):
// followed only when its on_enter certainly fails, the landing swallowed
// there (landingSwallowed).
func (w *settleWalk) redirect(p string, depth int) bool {
	dest, region := w.l.ix.plainLeaf(p), false
	if dest == nil {
		dest, region = w.l.ix.regionLeaf(p), true
	}
	if depth >= maxSettleRedirects || dest == nil {
		return false
	}
	origin, before := w.cur, w.l.world.clone()
	w.cur = dest
	var emits []string
	if !w.effects(dest.OnEnter, nil, &emits) {
		return w.landingSwallowed(origin, depth, before)
	}
	if region && !w.leavesRegion(dest, emits) {
		return false // a region leaf is followed only to a swallowed landing, or out by its one hop
	}
	for _, name := range emits {
		if !w.fire(cmp.Or(w.l.ix.aliasOf(w.cur, name), name), nil, 1, false) {
			return false
		}
	}
	ok, _ := w.dispatchAt(depth + 1)
	return ok
}

// leavesRegion reports an on_error landing on the flat path of a
// region's leaf dest whose on_enter queued one emit only, which an
// unguarded first arm there takes to a literal target landing on a leaf
// outside any parallel state: upstream goes on from there as from a
// plain leaf (conformance lint-set-fails-region g, h: p.rb.b3's hop
// rests on fin).
func (w *settleWalk) leavesRegion(dest *story.State, emits []string) bool {
	if len(emits) != 1 {
		return false
	}
	n, a := firstArmOf(dest, cmp.Or(w.l.ix.aliasOf(dest, emits[0]), emits[0]))
	if a == nil || a.When != "" || len(a.Emit()) > 0 {
		return false
	}
	to := w.l.ix.literalTarget(n, a)
	return to != nil && w.l.ix.landingLeaf(to.Path) != nil
}

// namesNoState reports an on_error target both engines look up as
// written and so never find: one with whitespace around it, or a {{ }}
// template, which is never rendered (conformance on-error-untrimmed,
// on-error-template-literal).
func namesNoState(tt string) bool {
	return tt != strings.TrimSpace(tt) || story.IsTemplated(tt)
}

// landingSwallowed is where the walk goes on when the on_enter of an
// on_error landing stopped: one set: of it certainly fails, so upstream
// swallows the landing, drops what it queued and rests on the landing
// state, the user turn's post-bind pass running from origin, the state
// the call was made at (conformance lint-set-fails g, h). Followed only
// for the user turn's own first redirect, where neither origin nor an
// ancestor has an emit_intent in its on_enter (that pass then fires
// nothing). The world is before's, as the landing found it: its own
// writes before the set are undone, the failing call's and those before
// it stand (conformance dropped-chain-world f).
func (w *settleWalk) landingSwallowed(origin *story.State, depth int, before *knownWorld) bool {
	if !w.setFailed || depth > 0 || !w.turnBatch || origin == nil {
		return false
	}
	for s := origin; s != nil; s = s.Parent {
		if slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e != nil && e.EmitIntent() != "" }) {
			return false
		}
	}
	w.l.world = before
	w.calls, w.setFailed, w.fatal, w.swallowedAt = nil, false, false, w.cur.Path
	return true
}

// redirectPath is the state path on_error target tt names, when it is
// certain: a literal absolute path ("/" read as "."), no "../" chain,
// template or exit.
func redirectPath(tt string) (string, bool) {
	tt = strings.TrimSpace(tt)
	if tt == "" || strings.HasPrefix(tt, ".") || strings.HasPrefix(tt, "@") || story.IsTemplated(tt) {
		return "", false
	}
	return strings.ReplaceAll(tt, "/", "."), true
}

// postBind is the post-bind pass (story-runtime §1.9): the resting
// state's own on_enter emits decided on the bound world with empty
// slots, fired, their calls dispatched, while a round queues calls.
func (w *settleWalk) postBind() bool {
	for round := 0; w.cur != nil; round++ {
		if round > maxSettleRounds {
			return false
		}
		emits, ok := w.roundEmits()
		if !ok {
			return false
		}
		if len(emits) == 0 {
			return true
		}
		if !w.spend(len(w.l.world.vals) + len(w.l.world.dirty)) {
			return false
		}
		before, cur := w.l.world.clone(), w.cur
		for _, name := range emits {
			if w.fire(cmp.Or(w.l.ix.aliasOf(w.cur, name), name), nil, 1, false) {
				continue
			}
			if !w.fatal {
				return false
			}
			// a failing round is discarded whole, and the pass ends
			// there (conformance lint-settle h)
			w.l.world, w.cur, w.exit, w.calls = before, cur, "", nil
			w.discarded, w.discardedWhy = strings.Join(emits, ", "), "an emit finding no arm"
			if w.setFailed {
				w.discardedWhy = "a set: in it failing to render"
			}
			w.setFailed, w.fatal = false, false
			return true
		}
		if len(w.calls) == 0 {
			return true
		}
		ok, redirected := w.dispatch()
		if !ok {
			return false
		}
		if redirected {
			// whether the pass goes on after a round's redirect is not
			// probed: followed only where a next round fires nothing
			// (conformance lint-settle-redirect g)
			emits, ok := w.roundEmits()
			return ok && len(emits) == 0
		}
	}
	return true
}

// roundEmits are the emits a post-bind round at w.cur decides: its own
// on_enter emit_intent entries whose when: holds, with empty slots; ok is
// false when that is not certain.
func (w *settleWalk) roundEmits() ([]string, bool) {
	var emits []string
	if !w.spend(len(w.cur.OnEnter)) {
		return nil, false
	}
	for _, e := range w.cur.OnEnter {
		if e == nil || e.EmitIntent() == "" {
			continue
		}
		fires, known := w.fires(e, nil)
		if !known {
			return nil, false
		}
		if !fires {
			continue
		}
		name := strings.TrimSpace(e.EmitIntent())
		if story.IsTemplated(name) || slotsMayLoseHop(e) {
			return nil, false
		}
		emits = append(emits, name)
	}
	return emits, true
}

// clone is a copy of w the walk may change.
func (w *knownWorld) clone() *knownWorld {
	c := *w
	c.vals = maps.Clone(w.vals)
	c.dirty = maps.Clone(w.dirty)
	return &c
}

// fires is whether e's when: lets it run (always, without one), and
// whether that is certain.
func (w *settleWalk) fires(e *story.Effect, t *Turn) (fires, known bool) {
	if e.When == "" {
		return true, true
	}
	return w.l.guardValue(e.When, t)
}
