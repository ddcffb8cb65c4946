package flowtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/duration"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// The settle walk (lint_settle.go) follows background jobs too
// (story-runtime §5; conformance lint-jobs-land, probed on the existing
// engine): a background call the walk dispatches is submitted there,
// its job id bound (a value the lint does not know), with the state it
// was submitted at as its origin and the fixture's stub answering it
// after the stub's delay on the fixture's virtual clock. A turn's
// advance_clock then lands the jobs already due, then every job due by its
// end, each in submission order (engine clock.go's advance), and a turn's intent lands those already
// due first (the rig's Land); each landing is the engine's completion
// turn (jobs.go's runOnComplete): skipped when the machine left the
// origin, else last_job_status and last_job_result set in memory for the
// on_complete chain, its effects run, the emits it decides fired and its
// calls dispatched, then the first target entry whose when: holds taken
// (a {{ }} one rendered on the known world), the states it enters run
// their on_enter and their calls dispatched, with no post-bind pass.
// Jobs a landing starts land in the same advance when they are due.
//
// Anything not certain gives the walk up, as before: a job the stubs do
// not certainly answer (none, a cassette, a clarification), an on_error
// on the job or a redirect while it lands, a timeout: where the advance
// starts, a session resting on a terminal state (upstream's listener
// stops there), a target that names no plain leaf or the state itself, a
// stub answer holding text not in NFC (upstream's log refuses a
// completion writing it).
// A turn the walk does not follow in a story that starts jobs may start
// one: from then on the fixture's jobs are not followed (jobsLost).

// litJob is a background job a followed turn started, not yet landed.
type litJob struct {
	e      *story.Effect
	origin string        // the state it was submitted at: its on_complete runs only there
	due    time.Duration // on the fixture's virtual clock
	at     time.Duration // when it was submitted, on that clock
	ans    stubAnswer
	// waited: an advance ended before it was due (upstream then aborted
	// the run at the next advance: not followed)
	waited bool
	// unstored: its with: rendered a NaN or an infinity: upstream's job
	// store holds no row for it, and expect_jobs never sees it
	// (lint_jobs_fewer.go)
	unstored bool
}

// maxLandings bounds the landings one advance follows (the engine's
// landCap is far above any fixture's need).
const maxLandings = 32

// jobCall reports a background call the walk may submit.
func jobCall(e *story.Effect) bool {
	return e.Background() && e.Invoke != "" && e.OnError() == "" && e.Agent() == ""
}

// submit starts background call e at the state the batch dispatches at
// (engine jobs.go's submit): the first job_id bind (in key order) and
// last_job_id hold an id the lint does not know.
func (w *settleWalk) submit(e *story.Effect) bool {
	l := w.l
	a, delay := l.answerAfter(e)
	if !a.known || w.cur == nil || len(l.jobs) >= maxLandings || l.fx.HostCassette != "" {
		return false
	}
	if name, _ := l.ix.handler(e.Invoke); !slices.ContainsFunc(l.fx.HostHandlers, func(s *Stub) bool { return s.Name == name || strings.HasPrefix(name, s.Name+".") }) {
		return false // no stub: a built-in may run for real
	}
	kw := l.world
	for _, kv := range e.Bind() {
		if s, _ := kv.Value.(string); s == "job_id" {
			kw.dirty[kv.Key] = true
		}
	}
	kw.dirty[story.WorldLastJobID] = true
	kw.dirty[story.WorldInbox] = true
	l.jobs = append(l.jobs, litJob{e: e, origin: cmp.Or(w.chainOrigin, w.cur.Path), due: l.now + delay, at: l.now, ans: a, unstored: w.unstored[e]})
	if w.unstored[e] {
		w.unstoredJobs++
	} else {
		w.submitted++
	}
	l.post("info")
	return true
}

// advance moves the fixture's clock by d after the turn and lands the
// jobs due by then; false when that is not certain. armed: the turn
// certainly armed the resting state's timeout afresh (settled).
func (w *settleWalk) advance(d time.Duration, armed bool) bool {
	l := w.l
	if !w.timerWaits(d, armed) {
		return false // an armed timeout may fire first
	}
	if slices.ContainsFunc(l.jobs, func(j litJob) bool { return j.waited }) {
		return false // upstream aborted such a run (lint-jobs-land's README)
	}
	// the jobs already due land first, then those the advance makes due
	// (engine clock.go's advance; conformance jobs-due-before-advance)
	if !w.landDue() {
		return false
	}
	l.now += d
	if !w.landDue() {
		return false
	}
	l.jobs = slices.Clone(l.jobs)
	for i := range l.jobs {
		l.jobs[i].waited = true
	}
	return true
}

// partialAdvance warns when t's positive advance_clock, followed to its
// end, leaves a job the stubs answer still to land: upstream's drain then
// waits on its scheduler until its 5 s deadline and aborts the whole run
// (probe /work/notes/probes/hunt49-aborts: a 10s stub delay under a 5s
// advance, a landing's target submitting a delayed job), where the engine
// here leaves the job running.
func (l *fixtureLint) partialAdvance(t *Turn) {
	if t.AdvanceClock <= 0 {
		return // no drain upstream (flow-format §5.2)
	}
	i := slices.IndexFunc(l.jobs, func(j litJob) bool { return j.due > l.now })
	if i < 0 {
		return
	}
	j := l.jobs[i]
	fix := "advance the clock past its delay, or shorten the stub's delay"
	if j.at == l.now {
		// the clock moves in one step: a landing submits at its end
		fix = "a job a landing starts is never covered by the advance that landed it: give its stub no delay, or start it from a user turn"
	}
	l.warn(t.valueAt("advance_clock"), rulePartialAdvance, "turns[%d].advance_clock: %s ends with the background %s job submitted at %q still to land (this fixture's stub answers it %s later): the existing engine waits for it for 5 s, then aborts the whole test run here (\"advance_clock: scheduler WaitIdle: context deadline exceeded\", no report written), while kitsoki leaves it running; %s",
		t.Index, fmtAdvance(t), j.e.Invoke, j.origin, j.due-l.now, fix)
}

// timerWaits reports whether no timeout fires in an advance by d from
// w.cur: none there or above it, or the state's own, armed afresh by the
// turn, with a literal after: longer than d (clockFires judges the rest).
func (w *settleWalk) timerWaits(d time.Duration, armed bool) bool {
	if w.cur == nil {
		return true
	}
	if !noTimeout([]*story.State{w.cur.Parent}) {
		return false
	}
	tm := w.cur.Timeout()
	if tm == nil {
		return true
	}
	after := strings.TrimSpace(tm.After)
	if !armed || story.IsTemplated(after) {
		return false
	}
	td, err := duration.Parse(after)
	return err == nil && td > d
}

// landDue lands, in submission order, each job due by now (engine
// nextDueJob), a job a landing starts included.
func (w *settleWalk) landDue() bool {
	for n := 0; ; n++ {
		l := w.l
		i := slices.IndexFunc(l.jobs, func(j litJob) bool { return j.due <= l.now })
		if i < 0 {
			return true
		}
		if n >= maxLandings || !w.spend(1+valueNodes(l.jobs[i].ans.data)) {
			return false
		}
		j := l.jobs[i]
		l.jobs = slices.Delete(slices.Clone(l.jobs), i, i+1)
		w.landed++
		if !w.landPosting(j) {
			return false
		}
	}
}

// land is job j's completion turn (engine runOnComplete).
func (w *settleWalk) land(j litJob) bool {
	if w.cur == nil || w.cur.Path != j.origin {
		return true // the machine left its origin: on_complete skipped
	}
	if w.cur.Terminal || w.l.listenerGone {
		return false // upstream's listener may have stopped (restedTerminal)
	}
	if _, bad := jsonvalue.FirstNonNFC([]any{j.ans.data, j.ans.err}); bad {
		return false // a completion writing it is dropped whole (conformance flow-non-nfc-turn)
	}
	kw := w.l.world
	pre, at, hops, jobs := kw.clone(), w.cur, w.hops, len(w.l.jobs)
	keys := []string{story.WorldLastJobID, story.WorldLastJobStatus, story.WorldLastJobResult}
	type held struct {
		v          any
		had, dirty bool
	}
	before := map[string]held{}
	for _, k := range keys {
		v, had := kw.vals[k]
		before[k] = held{v, had, kw.dirty[k]}
	}
	status := "done"
	if j.ans.err != "" {
		status = "failed"
	}
	var result any
	if j.ans.data != nil {
		result = j.ans.data
	}
	kw.set(story.WorldLastJobStatus, status)
	kw.set(story.WorldLastJobResult, result)
	kw.dirty[story.WorldLastJobID] = true
	kw.noSlots = true // a completion turn has none (engine beginSyntheticTurn)
	w.preTarget, w.synthBound = nil, nil
	ok := w.onComplete(j.e.OnComplete())
	if !ok && w.setFailed && w.hops == hops && len(w.l.jobs) == jobs {
		// a set: of the chain, or of the on_enter its target entered,
		// certainly fails: the machine stays at the origin (conformance
		// lint-set-fails b, d). A failing chain is dropped whole, its
		// writes with it; a failing target's move is dropped alone, the
		// chain's writes standing (conformance dropped-chain-world a, c)
		w.cur, w.setFailed, w.fatal = at, false, false
		w.dropped++
		if w.preTarget == nil {
			w.l.world = pre
			return true
		}
		w.l.world, ok = w.preTarget, true
	}
	w.preTarget = nil
	kw = w.l.world // the walk replaces it on a dropped chain or target only
	kw.noSlots = false
	// set in memory only: put back (engine setInMemory)
	for _, k := range keys {
		b := before[k]
		if b.had {
			kw.vals[k] = b.v
		} else {
			delete(kw.vals, k)
		}
		if b.dirty {
			kw.dirty[k] = true
		} else {
			delete(kw.dirty, k)
		}
	}
	return ok
}

// onComplete runs an on_complete chain at the job's origin: its effects,
// the emits they decide, its calls, then its target.
func (w *settleWalk) onComplete(effs []*story.Effect) bool {
	var body, targets []*story.Effect
	for _, e := range effs {
		if e == nil {
			continue
		}
		if e.Target() == "" {
			body = append(body, e)
			continue
		}
		if !bareTarget(e) {
			return false
		}
		targets = append(targets, e)
		if _, known := w.fires(e, nil); !known {
			return false // its when: is evaluated in the chain too: an error fails it
		}
	}
	w.chainOrigin = w.cur.Path
	ok := w.settleSynthetic(body)
	w.chainOrigin = ""
	if !ok {
		return false
	}
	tgt, known := w.completionTarget(targets)
	if !known {
		return false
	}
	if tgt == nil {
		return true
	}
	dest, stay, ok := w.completionDest(tgt.Target())
	if !ok || stay {
		return ok
	}
	if w.cur == nil {
		// an exit the chain's hop took: its target brings the session
		// back (conformance oncomplete-exit-hop-notice f), which is not
		// followed
		return false
	}
	entered, ok := w.enter(dest, true)
	if !ok {
		return false
	}
	// the world the chain leaves, which a failing move leaves in place
	// (land); not probed after a chain's call
	w.preTarget = w.l.world.clone()
	w.preTarget.lost = w.preTarget.lost || slices.ContainsFunc(body, func(e *story.Effect) bool { return e.Invoke != "" })
	w.cur = dest
	var entries []*story.Effect
	for _, s := range entered {
		entries = append(entries, s.OnEnter...)
	}
	if !w.viewSure(dest) {
		w.loseSynthBinds() // the chain's binds too: the turn renders dest's view
	}
	return w.settleSynthetic(entries)
}

// settleSynthetic runs effs at w.cur, fires the emits they decide, then
// dispatches the calls queued (engine settleSynthetic; no post-bind
// pass follows a synthetic turn); a redirect is not followed.
func (w *settleWalk) settleSynthetic(effs []*story.Effect) bool {
	var emits []string
	if !w.effects(effs, nil, &emits) {
		return false
	}
	for _, name := range emits {
		if !w.fire(cmp.Or(w.l.ix.aliasOf(w.cur, name), name), nil, 1, false) {
			return false
		}
	}
	bound := boundKeys(w.calls)
	ok, redirected := w.dispatch()
	w.synthBound = append(w.synthBound, bound...)
	if !w.viewSure(w.cur) {
		w.loseSynthBinds()
	}
	return ok && !redirected
}

// boundKeys lists the world keys calls bind (bind: and the id binds).
func boundKeys(calls []*story.Effect) []string {
	var keys []string
	for _, e := range calls {
		if e.Background() {
			continue
		}
		for _, kv := range e.Bind() {
			keys = append(keys, kv.Key)
		}
	}
	return keys
}

// viewSure reports a state whose view certainly renders on any world: none,
// text with no template, or {{ }} templates that only read keys by name
// (a nested read of a key holding text fails). A synthetic turn whose view
// fails to render loses its dispatch's binds on both engines (conformance
// synthetic-view-drops-dispatch), which the lint does not judge: it makes
// them uncertain instead (loseSynthBinds).
func (w *settleWalk) viewSure(s *story.State) bool {
	if s == nil || s.View == nil {
		return true
	}
	v := s.View
	if v.Kind != "template" {
		return false
	}
	if !strings.Contains(v.Template, "{{") && !strings.Contains(v.Template, "{%") {
		return true
	}
	return w.l.world.judge != nil && w.l.world.judge.onlyReads(v.Template)
}

// loseSynthBinds makes every key a call of this synthetic turn bound
// uncertain (viewSure).
func (w *settleWalk) loseSynthBinds() {
	for _, k := range w.synthBound {
		w.l.world.dirty[k] = true
	}
}

// droppedNote says, for a message, how many completion turns were
// dropped whole.
func (w *settleWalk) droppedNote() string {
	if w.dropped == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them dropped whole, the machine staying at the job's origin: a set: of the on_complete chain, or of the on_enter its target enters, fails to render)", w.dropped)
}

// bareTarget reports an on_complete target entry that carries nothing
// else the chain would run.
func bareTarget(e *story.Effect) bool {
	return len(e.Set) == 0 && len(e.Increment()) == 0 && e.Say == "" && e.Invoke == "" && e.EmitIntent() == "" && len(e.Effects()) == 0
}

// completionTarget is the first target entry whose when: holds (engine
// completionTarget); known is false when that is not certain.
func (w *settleWalk) completionTarget(targets []*story.Effect) (*story.Effect, bool) {
	for _, e := range targets {
		fires, known := w.fires(e, nil)
		if !known {
			return nil, false
		}
		if fires {
			return e, true
		}
	}
	return nil, true
}

// completionDest is the plain leaf an on_complete target moves to
// (engine completionDest): a literal absolute path, or a {{ }} one the
// known world renders to one; stay when it names no move ("", ".").
// ok is false for anything else: a relative or exit path, a path the
// story does not hold (upstream drops the target), the state itself.
func (w *settleWalk) completionDest(tt string) (dest *story.State, stay, ok bool) {
	tt = strings.TrimSpace(tt)
	if story.IsTemplated(tt) {
		v, ok := w.l.guards.render(tt, w.l.world)
		s, isText := v.(string)
		if !ok || !isText {
			return nil, false, false
		}
		tt = strings.TrimSpace(s)
	}
	if tt == "" || tt == "." {
		return nil, true, true
	}
	if strings.HasPrefix(tt, ".") || strings.HasPrefix(tt, "@") || strings.HasPrefix(tt, "__exit__") || strings.Contains(tt, "{") {
		return nil, false, false
	}
	p := strings.ReplaceAll(tt, "/", ".")
	if w.l.ix.byPath[p] == nil {
		return nil, false, false
	}
	dest = w.l.ix.landingLeaf(p)
	if dest == nil || dest == w.cur {
		return nil, false, false
	}
	return dest, false, true
}

// noteTerminalRest marks the listener gone when t, a user turn, may have
// left the session resting in a terminal state: upstream lands no job
// for the rest of the run then, even once an arc leaves that state
// (conformance storymut-terminal-listener-gone); a run that starts in
// one, or a clock-only turn, does not count.
func (l *fixtureLint) noteTerminalRest(t *Turn) {
	if l.listenerGone || t.Intent == nil && !t.HasInput {
		return
	}
	r := l.rest
	l.listenerGone = r.at == nil && r.exit == "" && l.ix.terminal || r.at != nil && r.at.Terminal ||
		slices.ContainsFunc(r.alt, func(s *story.State) bool { return s != nil && s.Terminal })
}

// landBetween gives the fixture's jobs up before t's intent when one is
// already due: upstream's listener lands it in real time, a race it
// usually wins but not always (probed: lint-jobs-land's README;
// conformance host-job-lands-before-turn), and it lands one due job in
// the gap, the first submitted, the others one before each later user
// turn or all at the next advance (engine clock.go's landBetween;
// conformance jobs-land-one-per-gap).
func (l *fixtureLint) landBetween(t *Turn) {
	l.raced = 0
	if len(l.jobs) == 0 || t.Intent == nil && !t.HasInput {
		return
	}
	if !slices.ContainsFunc(l.jobs, func(j litJob) bool { return j.due <= l.now }) {
		return
	}
	if !l.raceLand() {
		l.loseJobs()
	}
}

// raceLand takes the first job already due out of the followed ones, the
// one the gap lands, when each due one's on_complete only sets,
// increments and says, on keys it names plainly: landed before t's
// intent or not, such a landing moves nothing and starts no job (the
// chain runs at the job's origin, its last_job_* set in memory only).
// The world keys every due job writes become unknown (the first may land
// after the intent, and under load upstream's listener lands more than
// one in a gap: jobs-land-one-per-gap's README), its notice too, and the
// fixture's jobs stay followed: the others land in later gaps
// (landBetween) or at an advance (landDue). false (nothing changed)
// otherwise.
func (l *fixtureLint) raceLand() bool {
	var keys []string
	for _, j := range l.jobs {
		if j.due > l.now {
			continue
		}
		if !plainEffects(j.e.OnComplete()) || l.world == nil {
			return false
		}
		for _, e := range j.e.OnComplete() {
			if e == nil {
				continue
			}
			for _, kv := range append(slices.Clone(e.Set), e.Increment()...) {
				if story.IsTemplated(kv.Key) {
					return false
				}
				root, _, _ := strings.Cut(kv.Key, ".")
				keys = append(keys, root)
			}
		}
	}
	for _, k := range keys {
		l.world.dirty[k] = true
	}
	i := slices.IndexFunc(l.jobs, func(j litJob) bool { return j.due <= l.now })
	l.jobs = slices.Delete(slices.Clone(l.jobs), i, i+1)
	l.raced = 1
	l.inbox.lost = true
	l.rest.armed = false // a completion turn's effect on the rest's timeout is not followed
	return true
}

// loseJobs gives up following the fixture's jobs: one may land unseen,
// so its world between turns is unknown, and its rest too unless every
// job's on_complete only sets and says.
func (l *fixtureLint) loseJobs() {
	if slices.ContainsFunc(l.jobs, func(j litJob) bool { return !plainEffects(j.e.OnComplete()) }) {
		l.rest = rest{}
	}
	l.jobs, l.jobsLost, l.jobsOut = nil, true, true
	l.world.loseAll()
}

// followsJobs reports whether t's advance_clock alone (no intent) is
// followed: jobs are out and every one is followed.
func (l *fixtureLint) followsJobs(t *Turn) bool {
	return len(l.jobs) > 0 && !l.jobsLost && t.Intent == nil && !t.HasInput && t.HasAdvance && l.world != nil
}

// clockTurn follows t, a clock-only turn at r, as the settle walk does
// the advance after an intent.
func (l *fixtureLint) clockTurn(t *Turn, r rest) (rest, bool) {
	if !l.followsJobs(t) || r.at == nil || len(r.alt) > 0 || !l.steps.spend(1+len(l.world.vals)+len(l.world.dirty)) {
		return rest{}, false
	}
	before, jobs, now, inbox := l.world, l.jobs, l.now, l.inbox
	l.world = before.clone()
	w := &settleWalk{l: l, cur: r.at}
	if !w.advance(t.AdvanceClock, false) || (w.cur != nil && l.ix.plainLeaf(w.cur.Path) == nil) {
		l.world, l.jobs, l.now, l.inbox = before, jobs, now, inbox
		return rest{}, false
	}
	l.partialAdvance(t)
	l.jobsAtMost(t, jobs, w)
	// every job it landed was followed, and those still out are known:
	// none moves the machine unseen (noteJobs)
	l.stepped, l.walked, l.advanced = true, true, true
	end := "__exit__" + w.exit
	if w.cur != nil {
		end = w.cur.Path
	}
	if t.ExpectState != nil && *t.ExpectState != end && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn advances the clock at %q (where %s) by %s, landing %d background job(s) as this fixture's stubs answer them%s, and ends at %q: every step on the way is certain (each job's on_complete and target judged on the world it lands on): the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, *t.ExpectState, r.at.Path, r.from, fmtAdvance(t), w.landed, w.droppedNote(), end, end)
		return rest{}, true
	}
	from := fmt.Sprintf("turns[%d] advances the clock by %s, the background jobs landing as this fixture's stubs answer them, every step certain", t.Index, fmtAdvance(t))
	if w.cur == nil {
		return rest{exit: w.exit, from: from}, true
	}
	return rest{at: w.cur, from: from}, true
}
