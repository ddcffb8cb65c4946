package flowtest

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// The known world follows a set: whose value is a {{ }} template reading
// only world keys it certainly holds (conformance lint-set-render, probed
// on the existing engine): the value is rendered as the engine renders it
// (expr.Template, a lone {{ e }} keeping e's type, anything else text),
// within the lowered budgets of a judgement (expr.RenderWithin), and held
// as rendered. An imported child's world_in is such a set on its
// wrapper's on_enter. A template reading slots, another root or an
// uncertain key, a bare name, a map or list holding templates, a render
// that fails or is not finite, or a string the key's declared type coerces (kept
// coerced on the legacy path, the string again on the next turn of the
// orchestrator's: docs/compat/engine.md "Set coercion") leaves the key
// uncertain, as before.

// rendered is one template's render on one world, kept once per story.
type rendered struct {
	v  any
	ok bool
	// fails: the template stopped with its own error (not a budget)
	fails bool
	// nonFinite: it certainly rendered a value holding a NaN or an
	// infinity (ok is false: no world value holds one)
	nonFinite bool
}

// setValue is what a set: of v certainly writes: ok is false when that is
// not certain.
func (w *knownWorld) setValue(v any) (any, bool) {
	if !hasTemplate(v) {
		return v, true
	}
	s, isText := v.(string)
	if !isText || w.judge == nil || !strings.Contains(s, "{{") {
		return nil, false
	}
	return w.judge.render(s, w)
}

// setRenders reports a set: value that certainly renders (conformance
// lint-set-fails): a literal, a {{ }} string the known world renders
// (setValue), or templates that only read world and slots keys by name
// (expr.Template.OnlyReads), which render on any world. A render that
// fails fails the chain it is in, which upstream drops whole in a job's
// completion turn, an on_error landing or a post-bind round: the settle
// walk gives up on any other set:.
func (w *knownWorld) setRenders(v any) bool {
	if !hasTemplate(v) {
		return true
	}
	if _, ok := w.setValue(v); ok {
		return true
	}
	return w.judge != nil && w.judge.readsOnly(v)
}

// setFails reports a set: value that certainly fails to render: one of
// its {{ }} strings stops with its own error on the values the known
// world certainly holds (conformance lint-set-fails b, d, h, j).
func (w *knownWorld) setFails(v any) bool {
	fails := false
	jsonvalue.MapLeaves(v, func(leaf any) any {
		if s, isText := leaf.(string); !fails && isText && w.judge != nil && story.IsTemplated(s) {
			fails = w.judge.renderFails(s, w)
		}
		return leaf
	})
	return fails
}

// readsOnly reports a set: value whose every {{ }} string only reads
// world and slots keys by name (onlyReads): it renders on any world.
func (j *guardJudge) readsOnly(v any) bool {
	sure := true
	jsonvalue.MapLeaves(v, func(leaf any) any {
		if s, isText := leaf.(string); sure && isText && story.IsTemplated(s) {
			sure = j.onlyReads(s)
		}
		return leaf
	})
	return sure
}

// coerces reports a set: value, rendered or literal, the engine coerces
// to the key's declared type: which of the two values a later read sees
// depends on the path and the turn (engine.SetCoerces; a literal "false"
// on a bool key reads false for the rest of its turn, conformance
// values-set-coercion), so the key is left uncertain.
func (w *knownWorld) coerces(kv story.KV, v any) bool {
	return w.story != nil && engine.SetCoerces(w.story, kv.Key, v)
}

// The known world follows an increment: too (conformance
// lint-increment): a literal delta added to a certain integer, as the
// engine adds it. On the orchestrator path upstream's replay reads a key
// still holding a non-zero default as 0 (docs/compat/engine.md
// "Increment of a non-zero default", where the engines differ), so there
// only a key whose default is zero or none, and that initial_world does
// not seed, is followed.

// onlyIncrement reports an effect whose only write is its increment:.
func onlyIncrement(e *story.Effect) bool {
	return e.Invoke == "" && e.Selection() == nil && len(e.Effects()) == 0 && len(e.OnComplete()) == 0
}

// applyIncrement runs an increment: e as the engine does (engine.
// IncrementValue) on a key whose integer (or absent) value is certain,
// by a literal delta; any other key it names is made uncertain (a
// string's base may be read coerced in the turn and as text after it).
func (w *knownWorld) applyIncrement(e *story.Effect, orchestrated bool) {
	if slices.ContainsFunc(e.Increment(), func(kv story.KV) bool { return story.IsTemplated(kv.Key) }) {
		w.lost = true // it may write any key
		return
	}
	for _, kv := range e.Increment() {
		first, _, _ := strings.Cut(kv.Key, ".")
		cur, ok := w.get(kv.Key)
		if ok && first == kv.Key && !hasTemplate(kv.Value) && integerOrNil(cur) && (!orchestrated || w.zeroBase(kv.Key)) {
			if v, ok := engine.IncrementValue(cur, kv.Value); ok {
				w.set(kv.Key, v)
				continue
			}
		}
		w.dirty[first] = true
	}
}

// zeroBase reports a key whose declared default is zero or none, that
// neither initial_world nor a world_override seeds: both engines add to
// what it holds.
func (w *knownWorld) zeroBase(k string) bool {
	if w.story == nil || w.seeded[k] {
		return false
	}
	v := w.decls[k]
	if v == nil {
		return true
	}
	n, isInt := engine.IncrementValue(v.Default, 0)
	return v.Default == nil || isInt && n == 0 && integerOrNil(v.Default)
}

// integerOrNil reports an integer value, or none.
func integerOrNil(v any) bool {
	switch v.(type) {
	case nil, int, int64, int32, uint64:
		return true
	}
	return false
}

// render is the template src rendered on the values w certainly holds.
func (j *guardJudge) render(src string, w *knownWorld) (any, bool) {
	r := j.rendering(src, w)
	return r.v, r.ok
}

// renderFails reports a template src certainly fails to render on the
// values w certainly holds (conformance lint-set-fails).
func (j *guardJudge) renderFails(src string, w *knownWorld) bool {
	return j.rendering(src, w).fails
}

// rendering is render's outcome: neither ok nor fails when it is not
// certain.
func (j *guardJudge) rendering(src string, w *knownWorld) rendered {
	jt := j.template(src)
	t, slots := jt.t, jt.slots
	if t == nil || j.visits > j.visitBytes || slots && !w.noSlots && w.slotOf == nil {
		return rendered{}
	}
	world := map[string]any{}
	for _, k := range jt.keys {
		v, ok := w.get(k)
		if !ok {
			return rendered{}
		}
		world[k] = v
	}
	sent := map[string]any{}
	for _, k := range jt.skeys {
		if w.noSlots {
			break
		}
		v, ok := w.slotOf(k)
		if !ok {
			return rendered{}
		}
		sent[k] = v
	}
	in, err := json.Marshal([]any{world, sent})
	if j.visits += visitCost + int64(len(in)); err != nil || len(in) > expr.JudgeInput {
		return rendered{}
	}
	key := src + "\x00" + string(in)
	if r, ok := j.renders[key]; ok {
		return r
	}
	if j.work += int64(len(src)) * int64(max(len(in), 64)); j.work > judgeWork {
		return rendered{}
	}
	env := expr.Env{"world": world}
	if slots {
		env["slots"] = sent
	}
	out, err := t.RenderWithin(env, expr.JudgeBytes, expr.JudgeElems)
	r := rendered{fails: err != nil && !expr.PastBudget(err), nonFinite: err == nil && !finiteValue(out)}
	if err == nil && finiteValue(out) {
		r = rendered{v: jsonvalue.Normalize(out), ok: true}
	}
	if j.renders == nil {
		j.renders = map[string]rendered{}
	}
	j.renders[key] = r
	return r
}

// template is src compiled once with the world keys and slots it reads
// by name (t nil when it reads anything else).
func (j *guardJudge) template(src string) judgedTemplate {
	if t, ok := j.templates[src]; ok {
		return t
	}
	if j.templates == nil {
		j.templates = map[string]judgedTemplate{}
	}
	jt := judgedTemplate{}
	if t, err := expr.CompileTemplate(src); err == nil && !strings.Contains(src, "now(") {
		roots, all := t.Roots()
		keys, plain := t.MemberReads("world")
		skeys, splain := t.MemberReads("slots")
		// a bare name (or a root upstream cannot fetch) fails a set: there
		// (conformance bare-names)
		bare := len(t.BareNames()) > 0 || len(t.UnfetchedRoots()) > 0
		if !all && plain && splain && !bare && !slices.ContainsFunc(roots, func(r string) bool { return r != "world" && r != "slots" }) {
			jt = judgedTemplate{t: t, keys: keys, skeys: skeys, slots: slices.Contains(roots, "slots")}
		}
	}
	j.templates[src] = jt
	return jt
}

// onlyReads reports a {{ }} template of world and slots reads alone
// (expr.Template.OnlyReads).
func (j *guardJudge) onlyReads(src string) bool {
	if !strings.Contains(src, "{{") || strings.Contains(src, "{%") {
		return false
	}
	t := j.template(src).t
	return t != nil && t.OnlyReads()
}

// judgedTemplate is a set: template compiled once with what it reads.
type judgedTemplate struct {
	t           *expr.Template
	keys, skeys []string // the world keys and slots it reads by name
	// slots: it reads slots, rendered only where they are certainly
	// empty (knownWorld.noSlots) or certain (knownWorld.slotOf)
	slots bool
}

// finiteValue reports a value holding no NaN or infinity, which no JSON
// value holds (the engine's set refuses it).
func finiteValue(v any) bool {
	ok := true
	jsonvalue.MapLeaves(v, func(leaf any) any {
		if f, isF := leaf.(float64); isF && (math.IsNaN(f) || math.IsInf(f, 0)) {
			ok = false
		}
		return leaf
	})
	return ok
}
