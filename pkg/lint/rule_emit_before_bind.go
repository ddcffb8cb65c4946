package lint

import (
	"encoding/json"
	"maps"
	"slices"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleEmitBeforeBind = &Rule{ID: "emit-before-bind", Severity: diag.Warning, LintOnly: true,
	Summary: "a state's on_enter emit_intent guard reads a key a call earlier in the same on_enter binds, and holds on the value the key has before the call (its default, or a literal set: earlier in the list): the guard is first decided before the call runs (the pre-bind pass), so on an entry where the key still holds it the emit fires at once and routes before the call's binds land",
	Example: "on_enter:\n  - {invoke: host.run, bind: {code: exit_code}}   # code: {type: int, default: -1}\n  - {when: \"world.code != 0\", emit_intent: failed}"}

// nowRe finds a call of now(): a guard holding one is not decided on
// the defaults alone (nor is one naming a root other than world).
var nowRe = &lazyre.Regexp{Expr: `(^|[^.\w$])now\b`}

// checkEmitBeforeBind warns at an on_enter emit_intent whose when: reads
// a key an earlier foreground call of the same list binds and is true on
// the story's world defaults. Effects run in list order and an emit's
// when: is decided when the list reaches it, before any call is
// dispatched (story-runtime §1.7, §1.9): the post-bind pass re-reads it
// only when it did not fire. Probed with the existing engine: bind
// exit_code (default -1), then emit failed when world.exit_code != 0 and
// passed when == 0, with a stub answering exit_code 0: the turn lands in
// the failed state; with > 0 instead of != 0 it lands in the passed one.
// Only a guard that reads nothing but declared world keys is judged.
func checkEmitBeforeBind(c *checker) {
	if len(c.st.World) == 0 {
		return
	}
	defaults := map[string]any{}
	for _, w := range c.st.World {
		defaults[w.Name] = jsonvalue.Normalize(w.Default)
	}
	for _, s := range c.states() {
		bound := map[string]bool{}
		world := maps.Clone(defaults) // the entry's world as the list goes, pre-bind
		for _, e := range s.OnEnter {
			if e == nil {
				continue
			}
			if k := emitReadsBound(e, bound); k != "" && e.When != "" && holdsOn(e.When, world) {
				c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitBeforeBind,
					"state %q on_enter: this emit_intent's when %q reads world.%s, which a call earlier in this on_enter binds, and holds on the value the key has before the call (%v, its default or an earlier set: of this list): the guard is decided before the call runs, so on an entry where world.%s holds it the emit fires at once, on both engines, and routes before the call's binds land (the call still runs, and its on_error redirect still wins); make the guard false on that value (set a sentinel before the call, or world.%s > 0 for != 0), so the post-bind pass decides it on the bound value",
					s.Path, e.When, k, world[k], k, k)
			}
			preBind(e, world)
			for k := range boundKeys([]*story.Effect{e}) {
				bound[k] = true
			}
		}
	}
}

// preBind applies to world what e writes before any call is dispatched:
// a literal set: (one kind per entry: set before increment), an
// increment of a known number; a templated or unknown write forgets the
// key.
func preBind(e *story.Effect, world map[string]any) {
	if e.When != "" && (len(e.Set) > 0 || len(e.Increment()) > 0) {
		for _, kv := range append(slices.Clone(e.Set), e.Increment()...) {
			delete(world, kv.Key) // may or may not run
		}
		return
	}
	if len(e.Set) > 0 {
		for _, kv := range e.Set {
			if s, ok := kv.Value.(string); ok && story.IsTemplated(s) {
				delete(world, kv.Key)
				continue
			}
			world[kv.Key] = jsonvalue.Normalize(kv.Value)
		}
		return
	}
	for _, kv := range e.Increment() {
		delete(world, kv.Key) // its arithmetic is not redone here
	}
}

// holdsOn reports whether the guard src, reading only world keys world
// knows, is true on world.
func holdsOn(src string, world map[string]any) bool {
	if nowRe.MatchString(src) {
		return false
	}
	p, err := expr.CompileGuard(src)
	if err != nil || len(p.BareNames()) > 0 {
		return false
	}
	if roots, all := p.Roots(); all || slices.ContainsFunc(roots, func(r string) bool { return r != "world" }) {
		return false
	}
	read := map[string]any{}
	for _, k := range p.WorldKeys() {
		v, ok := world[k]
		if !ok {
			return false
		}
		read[k] = v
	}
	// judged within expr's lint budgets: one judgement per emit of the
	// story (and per edit in lsp) at a run's bounds could cost much of a
	// second each (TestEmitBeforeBind's bounded cases)
	if _, plain := p.MemberReads("world"); !plain {
		read = world // it reads the world otherwise than by key
	}
	if in, err := json.Marshal(read); err != nil || len(in) > expr.JudgeInput {
		return false
	}
	ok, err := p.EvalBoolWithin(expr.Env{"world": read}, expr.JudgeBytes, expr.JudgeElems)
	return err == nil && ok
}
