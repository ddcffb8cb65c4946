package flowtest

import (
	"encoding/json"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story/expr"
)

// guardValue evaluates the when: of an arm t fires with the world the
// fixture certainly has: known is false when the guard reads anything
// uncertain (a key something may have written, a slot not sent as a
// literal, another root, now()) or fails to evaluate.
func (l *fixtureLint) guardValue(when string, t *Turn) (val, known bool) {
	val, known, err := l.guardEval(when, t)
	return val, known && err == nil
}

// guardEval is guardValue with the evaluation's error: err is non-nil
// (and known true) when the guard, on the values the fixture certainly
// has, fails to evaluate. The judge takes the guard's reads from expr's
// own parse (Program.MemberReads): only world.K, world?.K, world["K"]
// and the same of slots are judged; any other use of either root
// (world[x], len(world)) is not.
func (l *fixtureLint) guardEval(when string, t *Turn) (val, known bool, err error) {
	if l.world == nil || l.guards.visits > l.guards.visitBytes {
		return false, false, nil
	}
	g := l.guards.compile(when)
	if g == nil {
		return false, false, nil
	}
	world := map[string]any{}
	for _, k := range g.wkeys {
		v, ok := l.world.get(k)
		if !ok {
			return false, false, nil
		}
		world[k] = v
	}
	slots := map[string]any{}
	for _, name := range g.skeys {
		v, ok := sentSlot(t, name)
		if !ok && !l.unsentSlot(t, name) {
			return false, false, nil
		}
		slots[name] = v
	}
	return l.guards.eval(g.p, world, slots)
}

// Judging a guard ahead of a run is bounded well below a run's own
// evaluation (expr.JudgeBytes and the rest): the turns of a story's
// fixtures judge each arm's guard again, so a few arms of
// string(1..999999) judged on a few turns kept validate busy for minutes
// (TestLintJudgingAGuardIsBounded). A guard past those bounds,
// or reading values larger than expr.JudgeInput (a scan of a large list
// repeated in one guard), is left unjudged, as one reading an uncertain
// key is.
//
// guardJudge keeps each guard compiled once and each judgement made once
// per story: the same guard on the same values is the same answer. A
// judgement's work is at most about its guard's length times the size of
// what it reads (each operation of a guard without loops touches at most
// the values read or what it built, itself bounded): the story's
// judgements together spend at most judgeWork of that product, then the
// rest are left unjudged, so fixtures sending a new slot value on every
// turn cannot make each arm's large guard of max(world.l) scans over a
// large list a cost per turn (TestLintJudgementsShareOneBudget).
//
// The following visits the arms an intent reaches on every turn, each
// visit gathering the values its guard reads to look its judgement up:
// a story of many arms whose guards are all certainly false, under
// fixtures of many turns, cost arms times turns of visits (1,000 arms of
// world.x == N on 1,000 turns: three million). The story's visits
// together spend at most judgeVisitBytes (visitCost each, plus the bytes
// of values gathered), then every guard is left unjudged
// (TestLintGuardVisitsBounded).
type guardJudge struct {
	guards map[string]*judgedGuard // by guard text; nil: not judgeable
	judged map[string]judgement
	// templates and renders: set: templates compiled and rendered once
	// (lint_world_render.go), on the same budgets
	templates map[string]judgedTemplate
	renders   map[string]rendered
	work      int64 // judgeWork spent
	visits    int64 // of visitBytes spent
	// visitBytes is the visits' budget: judgeVisitBytes, or a test's
	// smaller one (lintStateAt)
	visitBytes int64
	// evals counts the guard visits that gathered values, for tests
	evals int
}

// judgedGuard is a guard compiled once with what it reads: only
// world.K, world?.K, world["K"] and the same of slots are judged; any
// other use of either root (world[x], len(world)), another root or
// now() makes the guard unjudgeable.
type judgedGuard struct {
	p            *expr.Program
	wkeys, skeys []string
}

// judgeWork is what one story's judgements may spend, in bytes of guard
// times bytes read: a hundred of the largest judgements (a guard of
// JudgeInput bytes reading JudgeInput bytes), far above any corpus
// story's.
const judgeWork = 100 * (16 << 10) * (16 << 10)

// judgeVisitBytes is what one story's guard visits may spend, far above
// any corpus story's; visitCost is one visit's fixed part (the maps
// built and the lookup).
const (
	judgeVisitBytes = 64 << 20
	visitCost       = 256
)

type judgement struct {
	val, known bool
	err        error
}

// compile is when's guard, compiled once, or nil when it is not judged.
func (j *guardJudge) compile(when string) *judgedGuard {
	if g, ok := j.guards[when]; ok {
		return g
	}
	if j.guards == nil {
		j.guards = map[string]*judgedGuard{}
	}
	g := judgeable(when)
	j.guards[when] = g
	return g
}

func judgeable(when string) *judgedGuard {
	if strings.Contains(when, "now(") {
		return nil
	}
	p, err := expr.CompileGuard(when)
	if err != nil {
		return nil
	}
	roots, all := p.Roots()
	if all {
		return nil
	}
	for _, r := range roots {
		if r != "world" && r != "slots" && r != "event" {
			return nil
		}
	}
	wkeys, wplain := p.MemberReads("world")
	skeys, splain := p.MemberReads("slots")
	if !wplain || !splain {
		return nil
	}
	return &judgedGuard{p: p, wkeys: wkeys, skeys: skeys}
}

func (j *guardJudge) eval(p *expr.Program, world, slots map[string]any) (val, known bool, err error) {
	j.evals++
	in, jerr := json.Marshal([2]map[string]any{world, slots})
	if j.visits += visitCost + int64(len(in)); jerr != nil || len(in) > expr.JudgeInput {
		return false, false, nil
	}
	key := p.Source() + "\x00" + string(in)
	if r, ok := j.judged[key]; ok {
		return r.val, r.known, r.err
	}
	if j.work += int64(len(p.Source())) * int64(max(len(in), 64)); j.work > judgeWork {
		return false, false, nil
	}
	b, err := p.EvalBoolWithin(expr.Env{"world": world, "slots": slots, "event": map[string]any{}}, expr.JudgeBytes, expr.JudgeElems)
	r := judgement{val: b, known: true, err: err}
	if expr.PastBudget(err) {
		r = judgement{}
	}
	if j.judged == nil {
		j.judged = map[string]judgement{}
	}
	j.judged[key] = r
	return r.val, r.known, r.err
}

// sentSlot is the literal value t's intent sends for slot name.
func sentSlot(t *Turn, name string) (any, bool) {
	if t == nil || t.Intent == nil {
		return nil, false
	}
	for _, kv := range t.Intent.Slots {
		if kv.Key == name {
			if hasTemplate(kv.Value) {
				return nil, false
			}
			return jsonvalue.Normalize(kv.Value), true
		}
	}
	return nil, false
}

// turnSlot is the value each slot of t's intent certainly has: as sent,
// or null when it is not sent and no declaration gives a default
// (unsentSlot); ok is false for any other.
func (l *fixtureLint) turnSlot(t *Turn) func(name string) (any, bool) {
	return func(name string) (any, bool) {
		if v, ok := sentSlot(t, name); ok {
			return v, true
		}
		return nil, l.unsentSlot(t, name)
	}
}

// unsentSlot reports a slot t's intent does not send and no declaration
// of the intent (global, a state's own, an imported child's) gives a
// default: the guard reads it as null (probed: slots.k > 3 fails
// "<nil> > int", slots.k == nil is true, with slots: {} or none).
func (l *fixtureLint) unsentSlot(t *Turn, name string) bool {
	if t == nil || t.Intent == nil {
		return false
	}
	for _, kv := range t.Intent.Slots {
		if kv.Key == name {
			return false
		}
	}
	arcs := append([]string{t.Intent.Name}, l.ix.aliases[t.Intent.Name]...)
	for _, arc := range arcs {
		for _, it := range l.ix.decls[arc] {
			if sl := it.Slots[name]; sl != nil && sl.Default != nil {
				return false
			}
		}
	}
	return true
}
