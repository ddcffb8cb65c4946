package flowtest

import (
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// knownWorld is what the rejected-turn checks know of a fixture's world
// before a turn: the values a guard may be judged on. A key no effect of
// the story, its imports or the engine writes keeps its start value
// (the world: default, the rig's seed, initial_world) until a
// world_override; a key an arm the fixture certainly takes sets to a
// literal holds it until something else may write it. Every other key
// is unknown.
type knownWorld struct {
	vals  map[string]any
	dirty map[string]bool // written keys whose value is no longer certain
	lost  bool            // every written key is uncertain
	// written: the keys something may write (nil with all: any key)
	written map[string]bool
	all     bool
	judge   *guardJudge  // renders set: templates (lint_world_render.go)
	story   *story.Story // the folded story, whose declared types a set coerces to
	// decls is the story's world declarations by name (storyIndex.world)
	decls  map[string]*story.WorldVar
	seeded map[string]bool // the keys initial_world or a world_override sets
	// noSlots: the effects run hold no slots (a job's completion turn,
	// lint_jobs_land.go), so a template reading them reads null
	noSlots bool
	// slotOf, while the settle walk runs a user turn's own arm and the
	// on_enter it enters, is the value a slot of that turn certainly has
	// (conformance lint-set-slots); nil elsewhere
	slotOf func(name string) (any, bool)
}

// startWorld is the fixture's world before its first turn, as the rig
// seeds it (fixture_run.go's initialWorld).
func (l *fixtureLint) startWorld() *knownWorld {
	w := engine.StoryWorld(l.ix.story)
	seedRig(w)
	seeded := map[string]bool{}
	for _, kv := range l.fx.InitialWorld {
		w[kv.Key] = jsonvalue.Normalize(jsonvalue.CopyNilAsEmpty(kv.Value))
		seeded[kv.Key] = true
	}
	kw := &knownWorld{vals: w, dirty: map[string]bool{}, judge: &l.guards, story: l.ix.story, decls: l.ix.world, seeded: seeded}
	kw.written, kw.all = l.ix.writes(l.fx.Orchestrated())
	if l.fx.Orchestrated() {
		kw.seed() // lint_world_seed.go
	}
	return kw
}

// get is k's value when it is certain: a key with no value that
// nothing writes reads as null.
func (w *knownWorld) get(k string) (any, bool) {
	v, ok := w.vals[k]
	written := w.all || w.written[k]
	switch {
	case w.dirty[k]: // a templated world_override too, of a key nothing else writes
		return nil, false
	case written && w.lost:
		return nil, false
	case !ok && written:
		return nil, false
	}
	return v, true
}

// set records a certain value of k.
func (w *knownWorld) set(k string, v any) {
	w.vals[k] = jsonvalue.Normalize(v)
	delete(w.dirty, k)
}

// forget makes every key effs may write uncertain.
func (w *knownWorld) forget(effs []*story.Effect, orchestrated bool) {
	for _, e := range effs {
		if e == nil {
			continue
		}
		if !effectWrites(e, orchestrated, func(k string) { w.dirty[k] = true }) {
			w.lost = true
		}
	}
}

// apply runs the effects of an arm the fixture certainly takes: an
// unguarded set: of a literal value makes it certain, a plain call is
// queued on calls (dispatch binds it after the turn's machine effects),
// anything else that may write a key makes it uncertain.
func (w *knownWorld) apply(effs []*story.Effect, orchestrated bool, calls *[]*story.Effect) {
	for _, e := range effs {
		if e == nil {
			continue
		}
		if plainCall(e) {
			if runs, known := w.onceRuns(e); !known {
				w.forget([]*story.Effect{e}, orchestrated)
			} else if runs {
				*calls = append(*calls, e)
			}
			continue
		}
		if e.When == "" && len(e.Set) > 0 {
			w.applySet(e, orchestrated)
			continue
		}
		if e.When == "" && len(e.Increment()) > 0 && onlyIncrement(e) {
			w.applyIncrement(e, orchestrated)
			continue
		}
		w.forget([]*story.Effect{e}, orchestrated)
	}
}

// applySet runs an unguarded set: e, every value rendered on the world
// before it, as the engine's applySet: a key whose value is not certain
// is made uncertain (a templated key name, any key).
func (w *knownWorld) applySet(e *story.Effect, orchestrated bool) {
	vals := make([]any, len(e.Set))
	sure := make([]bool, len(e.Set))
	for i, kv := range e.Set {
		if story.IsTemplated(kv.Key) {
			w.forget([]*story.Effect{e}, orchestrated)
			return
		}
		v, ok := w.setValue(kv.Value)
		vals[i], sure[i] = v, ok && !strings.Contains(kv.Key, ".") && !w.coerces(kv, v)
	}
	for i, kv := range e.Set {
		if sure[i] {
			w.set(kv.Key, vals[i])
			continue
		}
		first, _, _ := strings.Cut(kv.Key, ".")
		w.dirty[first] = true
	}
}

// hasTemplate reports a value holding {{ or {% anywhere.
func hasTemplate(v any) bool {
	found := false
	jsonvalue.MapLeaves(v, func(leaf any) any {
		if s, ok := leaf.(string); ok && story.IsTemplated(s) {
			found = true
		}
		return leaf
	})
	return found
}

// mayDivide reports a value holding a template with a division anywhere,
// which may render NaN or an infinity.
func mayDivide(v any) bool {
	found := false
	jsonvalue.MapLeaves(v, func(leaf any) any {
		if s, ok := leaf.(string); ok && story.IsTemplated(s) && strings.Contains(s, "/") {
			found = true
		}
		return leaf
	})
	return found
}

// slotsMayLoseHop reports whether an emit_intent's slots may render NaN or
// an infinity: upstream's log then loses the hop's machine.transition and
// the session rests where the last logged move left it (conformance
// emit-slots-non-finite), which the settle walk does not follow.
func slotsMayLoseHop(e *story.Effect) bool {
	return slices.ContainsFunc(e.Slots(), func(kv story.KV) bool { return mayDivide(kv.Value) })
}

// effectWrites calls add with each key e (and what it nests) may write;
// false when it may write any key (a templated key name, a selection).
func effectWrites(e *story.Effect, orchestrated bool, add func(string)) bool {
	ok := e.Selection() == nil
	for _, kv := range append(append(append([]story.KV{}, e.Set...), e.Increment()...), e.Bind()...) {
		if story.IsTemplated(kv.Key) {
			ok = false
		}
		first, _, _ := strings.Cut(kv.Key, ".")
		add(first)
	}
	if e.Invoke != "" && orchestrated {
		add(story.WorldLastError)
		add(story.WorldHostError)
	}
	if e.Background() {
		add(story.WorldLastJobID)
		add(story.WorldLastJobStatus)
		add(story.WorldLastJobResult)
		add(story.WorldInbox)
	}
	for _, n := range append(append([]*story.Effect{}, e.Effects()...), e.OnComplete()...) {
		if n != nil && !effectWrites(n, orchestrated, add) {
			ok = false
		}
	}
	return ok
}

// storyWrites is one result of writes.
type storyWrites struct {
	keys map[string]bool
	all  bool
}

// writes is the set of keys some effect of the story, an import's
// world_in or exit set:, or the engine may write on the fixture's path;
// all when any key may be written. It is worked out once per story and
// orchestrated value; callers only read the set.
func (ix *storyIndex) writes(orchestrated bool) (map[string]bool, bool) {
	i := 0
	if orchestrated {
		i = 1
	}
	if ix.wrote[i] == nil {
		keys, all := ix.findWrites(orchestrated)
		ix.wrote[i] = &storyWrites{keys, all}
	}
	return ix.wrote[i].keys, ix.wrote[i].all
}

func (ix *storyIndex) findWrites(orchestrated bool) (map[string]bool, bool) {
	out := map[string]bool{}
	for _, k := range story.InjectedWorld() {
		if k != story.WorldLastError && k != story.WorldHostError {
			out[k] = true // the engine's own, seeded or written at its will
		}
	}
	all := false
	add := func(k string) { out[k] = true }
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		if p.Parent == nil && !effectWrites(p.Effect, orchestrated, add) {
			all = true
		}
	}
	if len(ix.story.Proposals) > 0 || ix.story.Phases != nil || ix.unfolded {
		all = true
	}
	for _, st := range append([]*story.Story{ix.source}, ix.source.Children()...) {
		for alias, im := range st.Imports {
			if st != ix.source && im != nil {
				all = true // a grandchild's keys are prefixed twice
			}
			if im == nil {
				continue
			}
			for _, kv := range im.WorldIn {
				add(kv.Key)
				add(alias + "__" + kv.Key)
			}
			for _, ex := range im.Exits {
				if ex != nil {
					for _, kv := range ex.Set {
						add(kv.Key)
					}
				}
			}
		}
	}
	return out, all
}

// loseAll makes every written key uncertain (nil-safe).
func (w *knownWorld) loseAll() {
	if w != nil {
		w.lost = true
	}
}

// guardOf is guardValue for the arms t fires.
func (l *fixtureLint) guardOf(t *Turn) func(string) (bool, bool) {
	return func(when string) (bool, bool) { return l.guardValue(when, t) }
}

// beforeTurn brings the known world to the moment t's intent fires (a
// turn's advance_clock runs after it: after loses the world then): a
// turn that is no intent, or a job that may land between turns loses
// it; world_override writes.
func (l *fixtureLint) beforeTurn(t *Turn) {
	w := l.world
	if w == nil {
		return
	}
	if t.Intent == nil && !l.followsJobs(t) && !l.clockIdle(t, l.rest) || l.jobMayLand() {
		w.lost = true // (a clock turn whose jobs are followed: clockTurn; one where nothing moves: clockIdle)
	}
	if t.Intent != nil {
		for _, kv := range t.WorldOverride {
			w.seeded[kv.Key] = true // as initial_world: which base a replay reads is not probed
			if hasTemplate(kv.Value) {
				w.dirty[kv.Key] = true
				continue
			}
			w.set(kv.Key, kv.Value)
		}
	}
	if (t.Intent != nil || t.HasInput) && l.fx.Orchestrated() {
		w.seed() // a user turn's start (lint_world_seed.go)
	}
}

// moveWorld applies a turn t fired where r rests that moves the machine
// to one of to, taking arm (nil: unknown): arm's effects, then, when the
// move is certain (one state before, one after), the on_enter of each
// state it enters, outermost first, as the engines run them
// (story-runtime §1.8: a wrapper's generated sets give an imported
// child's world_in values and defaults), then the calls of both
// (lint_bind.go, a slot a handler refuses: lint_slot_uint.go); otherwise every write of the
// on_exit and on_enter of the states it may leave and enter is made
// uncertain.
func (l *fixtureLint) moveWorld(t *Turn, r rest, arc string, to []*story.State, arm *story.Transition) {
	w := l.world
	if w == nil {
		return
	}
	if to == nil && l.landingWorld(t, r, arc) {
		return
	}
	if to == nil || arm == nil {
		w.lost = true
		return
	}
	orch := l.fx.Orchestrated()
	var calls []*story.Effect
	w.apply(arm.Effects, orch, &calls)
	if entered, ok := enteredStates(r, to, arm); ok {
		for s := r.at; s != nil; s = s.Parent {
			w.forget(s.OnExit(), orch) // no on_exit runs upstream; kitsoki refuses one (rule on-exit)
		}
		for _, s := range entered {
			w.apply(s.OnEnter, orch, &calls)
		}
		w.dispatch(calls, l.turnAnswer(t), orch)
		return
	}
	w.forget(calls, orch)
	for _, s := range append(append([]*story.State{r.at}, r.alt...), to...) {
		for ; s != nil; s = s.Parent {
			w.forget(s.OnExit(), orch)
			w.forget(s.OnEnter, orch)
		}
	}
}

// enteredStates is the states whose on_enter a certain move from r.at
// to to[0] by arm runs, outermost first (story-runtime §1.8): each state
// above to[0] below the deepest it shares with r.at, and to[0]; only
// to[0] on an explicit re-entry of r.at, none on target "." or "".
// ok is false when the move is not certain (another state it may rest
// in before or after).
func enteredStates(r rest, to []*story.State, arm *story.Transition) ([]*story.State, bool) {
	if len(r.alt) > 0 || len(to) != 1 || r.at == nil {
		return nil, false
	}
	dest := to[0]
	if dest == r.at {
		if tt := strings.TrimSpace(arm.Target); tt == "" || tt == "." {
			return nil, true
		}
		return []*story.State{dest}, true
	}
	return settleEntered(r.at, dest, true), true
}

// noArmHolds warns at a turn whose intent, fired at at, reaches arms
// that all have a when: the world the fixture certainly has makes false:
// both engines reject it GUARD_FAILED (story-runtime §1.5). It reports
// whether it warned.
func (l *fixtureLint) noArmHolds(t *Turn, at *story.State, arc, from string) bool {
	n, arms, ok := l.armsFalse(t, at, arc)
	if !ok {
		return false
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q, fired at %q (where %s), reaches the arms of %q, and every one's when: is false on the world the fixture certainly has then (first: %s): the turn is rejected %s on both engines, if the fixture gets this far; set the world the guards need (initial_world, world_override, the slots sent), fix the guards, or expect the rejection (expect_error: {code: %s})",
		t.Index, t.Intent.Name, at.Path, from, n.Path, arms[0].When, engine.CodeGuardFailed, engine.CodeGuardFailed)
	return true
}

// armsFalse is the state whose arms t's intent reaches at at (arc) and
// those arms, with whether every one has a when: certainly false on the
// world the fixture has (GUARD_FAILED on both engines).
func (l *fixtureLint) armsFalse(t *Turn, at *story.State, arc string) (*story.State, []*story.Transition, bool) {
	n, arms := armsOf(at, arc)
	if len(arms) == 0 {
		return n, arms, false
	}
	guard := l.guardOf(t)
	for _, a := range arms {
		if a == nil || a.When == "" || a.Default() {
			return n, arms, false
		}
		if v, known := guard(a.When); !known || v {
			return n, arms, false
		}
	}
	return n, arms, true
}
