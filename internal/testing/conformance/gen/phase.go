package main

// The phase kind (`gen write -kind phase`): stories whose states come
// from phase templates, expanded at load (story-format §2 stage 3, §3.1
// phase_templates / phases / checkpoint_intents): a template with
// parameters of every type (given, defaulted, required, optional without
// a value), top-level state keys holding {param}, bodies holding
// {{ tpl.<p> }} and {{ phase.next.<arc> }} in targets, views, effects,
// guards and host-call args; a graph of phases chained by next: (to other
// phases, back to earlier ones, to hand-written states and to the names
// that end a run), cycles bounded by cycle_budgets:, entry on_enter:;
// checkpoint_intents: merged into every <id>_awaiting_reply (some
// colliding with the template's own state-local intent); the phase
// blocks declared in an include: file some of the time; hand-written
// states beside the generated ones. Some stories carry one load-time
// mistake of §9.3 (a missing required parameter, an unknown template, a
// second template state or hand-written state colliding — which loads —, a
// bad substitution, a second phases: block): both engines
// must refuse them with the same message (phaseLoadDiff compares the
// logs). Fixtures (phase_story.go) walk the expanded machine, predicted
// by phaseSim.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
)

// writePhase writes n phase stories, story i from seed+i.
func writePhase(dir string, n int, seed uint64) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.phaseStory(fmt.Sprintf("genp-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// phaseParam is one template parameter: its declaration and the values a
// graph entry may give it.
type phaseParam struct {
	name, typ string
	def       any // nil: no default
	required  bool
	values    []any
}

// phaseParams draws the template's parameters. title and limit are always
// declared (views and guards use them); the others some of the time.
func (g *gen) phaseParams() []*phaseParam {
	ps := []*phaseParam{
		{name: "title", typ: "string", values: []any{"Alpha", "Beta", "two words", "x-1", "hi {{ world.n }}", "3"}},
		{name: "limit", typ: "int", values: []any{0, 1, 2, 3}},
		{name: "step", typ: "int", values: []any{1, 2, 5}},
		{name: "gate", typ: "bool", values: []any{true, false}},
		{name: "ratio", typ: g.pick("float", "number"), values: []any{0.5, 2.5, 1.0, 3}},
		{name: "tags", typ: g.pick("list", "array"), values: []any{[]any{"a", "b"}, []any{1, "two"}, []any{}}},
		{name: "meta", typ: g.pick("map", "object"), values: []any{m{"k": "v"}, m{"a": 1, "b": true}}},
		{name: "opt", typ: "string", values: []any{"o1", "o two"}},
		{name: "kind", typ: "string", values: []any{"rev", "chk", "run_executing"}},
	}
	var out []*phaseParam
	for i, p := range ps {
		if i > 1 && p.name != "kind" && !g.chance(60) {
			continue
		}
		switch {
		case p.name == "opt":
			// optional without a default: {{ tpl.opt }} is kept as
			// written where an entry does not give it
		case p.name == "kind":
			if !g.chance(40) {
				continue
			}
			p.required = true // a key parameter: every entry gives it
		case g.chance(20):
			p.required = true
			if g.chance(30) {
				p.def = p.values[g.rnd.IntN(len(p.values))] // required with a default
			}
		default:
			p.def = p.values[g.rnd.IntN(len(p.values))]
		}
		out = append(out, p)
	}
	return out
}

// phaseMistakes are the load-time mistakes a story may carry (§9.3), and
// the collisions both engines load (the name already taken wins, probe
// phase-collisions). An undeclared cycle counter is not drawn: it is
// turn-fatal upstream (docs/compat/engine.md), so nothing compares.
var phaseMistakes = []string{
	"missing-required", "unknown-template", "no-templates", "no-template-name",
	"collide-phases", "collide-story", "bad-key-param", "empty-entry", "second-phases",
	"dup-template", "dup-checkpoint",
}

// phaseShape is what the story draws before it writes anything: the
// phases in graph order, their arcs, and the choices the fixtures need.
type phaseShape struct {
	ids         []string
	params      []*phaseParam
	given       []m            // per phase: the parameters it gives
	next        []m            // per phase: its next: arcs
	budgets     []m            // per phase: cycle_budgets
	onEnter     []bool         // per phase: an entry on_enter:
	cps         []string       // checkpoint intent names
	ownCP       string         // a checkpoint name the template's awaiting state declares itself
	globalCP    string         // a checkpoint name the story's intents: declare too
	bumpDefault bool           // bump's last arm is default: true
	nameArc     bool           // the executing state has a name arc guarded on the title
	kidExit     string         // "" or the generated state the imported child's exit lands in
	review      bool           // the template has a compound {id}_review
	skip        bool           // every phase has a skip arc
	keyState    bool           // the template has a {id}_{kind} state
	tplEnter    bool           // the template's executing state has its own on_enter
	include     bool           // the phase blocks live in phases.yaml
	mistake     string         // "" or one of phaseMistakes
	handNames   []string       // hand-written states
	root        string         // the story's root
	world       map[string]int // cycle counters declared
}

// value is what phase i substitutes for parameter p ("" and false when
// it has none).
func (sh *phaseShape) value(i int, p string) (any, bool) {
	if p == "id" {
		return sh.ids[i], true
	}
	if v, ok := sh.given[i][p]; ok {
		return v, true
	}
	for _, pp := range sh.params {
		if pp.name == p && pp.def != nil {
			return pp.def, true
		}
	}
	return nil, false
}

// drawShape draws the phases and their graph.
func (g *gen) drawShape() *phaseShape {
	sh := &phaseShape{params: g.phaseParams(), world: map[string]int{}}
	ids := []string{"plan", "build", "check", "ship", "p1", "p_2"}
	for i := range 2 + g.rnd.IntN(3) {
		sh.ids = append(sh.ids, ids[i])
	}
	if g.chance(30) {
		// graph order is not alphabetical
		slices.Reverse(sh.ids)
	}
	sh.handNames = []string{"start", "completed", "wrap_executing", "ended_ok", "failed", "ended", "abandoned", "terminated"}
	sh.skip = g.chance(20)
	// @exit:finished names @exit:finished_executing, the exit the story
	// declares under that name (a synthesized terminal state)
	ends := []string{"completed", "completed", "wrap", "ended_ok", "failed", "@exit:finished"}
	for i, id := range sh.ids {
		given := m{}
		for _, p := range sh.params {
			if p.required && p.def == nil || g.chance(50) {
				given[p.name] = p.values[g.rnd.IntN(len(p.values))]
			}
		}
		if g.chance(10) {
			given["extra"] = g.pick("e1", "e2") // an undeclared key: still a name
		}
		sh.given = append(sh.given, given)
		nx := m{}
		if i+1 < len(sh.ids) {
			nx["done"] = sh.ids[i+1]
		} else {
			nx["done"] = g.pick(ends...)
		}
		if g.chance(70) {
			// back to an earlier phase (or itself): a cycle
			nx["retry"] = sh.ids[g.rnd.IntN(i+1)]
		} else {
			nx["retry"] = g.pick(ends...)
		}
		if sh.skip {
			nx["skip"] = g.pick("ended", "abandoned", "terminated")
		}
		sh.next = append(sh.next, nx)
		b := m{}
		if nx["retry"] != nil && g.chance(60) {
			b["retry"] = g.budgetValue()
		}
		if g.chance(25) {
			b["bump"] = g.budgetValue()
		}
		if g.chance(10) {
			b["idle"] = 1 // an arc the state does not handle: only the default arm
		}
		for arc := range b {
			sh.world[fmt.Sprintf("cycle__%s__%s", id, arc)] = 0
		}
		sh.budgets = append(sh.budgets, b)
		sh.onEnter = append(sh.onEnter, g.chance(40))
	}
	for _, n := range []string{"approve", "hold", "veto"} {
		if g.chance(60) {
			sh.cps = append(sh.cps, n)
		}
	}
	if len(sh.cps) > 0 && g.chance(15) {
		// a checkpoint intent the story also declares globally
		sh.globalCP = sh.cps[0]
	}
	if len(sh.cps) > 0 && g.chance(35) {
		sh.ownCP = sh.cps[g.rnd.IntN(len(sh.cps))]
	}
	sh.review = g.chance(40)
	sh.keyState = slices.ContainsFunc(sh.params, func(p *phaseParam) bool { return p.name == "kind" })
	sh.tplEnter = g.chance(50)
	sh.include = g.chance(35)
	sh.bumpDefault = g.chance(40)
	sh.nameArc = g.chance(40)
	if g.chance(30) {
		// a phase delegates to an imported child (story.go's child),
		// whose exit lands back in a generated state
		sh.kidExit = sh.ids[g.rnd.IntN(len(sh.ids))] + g.pick("_awaiting_reply", "_executing")
	}
	sh.root = sh.ids[0] + "_executing"
	if g.chance(30) {
		sh.root = "start"
	}
	if g.chance(18) {
		sh.mistake = phaseMistakes[g.rnd.IntN(len(phaseMistakes))]
	}
	return sh
}

// budgetValue is a cycle budget's limit in one of the forms upstream
// reads (phaseBudget): mostly a whole number.
func (g *gen) budgetValue() any {
	if g.chance(75) {
		return 1 + g.rnd.IntN(3)
	}
	return []any{1.5, 2.9, "2", "+1", " 2", "abc", true}[g.rnd.IntN(7)]
}

// phaseBudget is the limit upstream reads from a budget value, or false
// for no budget (probe phase-budget-values).
func phaseBudget(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		return int(x), true
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}

// phaseTemplate writes the template's states.
func (g *gen) phaseTemplate(sh *phaseShape) m {
	has := func(p string) bool {
		return slices.ContainsFunc(sh.params, func(pp *phaseParam) bool { return pp.name == p })
	}
	view := "<{{ tpl.id }}> title={{ tpl.title }} n={{ world.n }} log={{ world.log }}"
	for _, p := range []string{"ratio", "tags", "meta", "opt", "gate"} {
		if has(p) && g.chance(60) {
			view += fmt.Sprintf(" %s={{ tpl.%s }}", p, p)
		}
	}
	bumpLast := m{"target": "{{ tpl.id }}_awaiting_reply"}
	if sh.bumpDefault {
		bumpLast["default"] = true // a default arm: never budgeted
	}
	exec := m{
		"view": view,
		"on": m{
			"next": []any{m{"target": "{{ phase.next.done }}", "effects": []any{m{"set": m{"log": "{{ world.log }}>{{ tpl.id }}"}}}}},
			"bump": []any{
				m{"when": "world.n < {{ tpl.limit }}", "target": ".", "effects": []any{m{"set": m{"n": phaseStepExpr(has("step"))}}}},
				bumpLast,
			},
			"ask": []any{m{"target": "{{ tpl.id }}_awaiting_reply", "effects": []any{
				m{"invoke": "host.ok", "with": m{"phase": "{{ tpl.id }}", "title": "{{ tpl.title }}", "n": "{{ world.n }}"}}}}},
			"retry": []any{m{"target": "{{ phase.next.retry }}"}},
		},
	}
	if has("gate") {
		// a guard that is the parameter's text alone
		exec["on"].(m)["flip"] = []any{m{"when": "{{ tpl.gate }}", "target": ".", "effects": []any{m{"set": m{"s": "gate {{ tpl.id }}"}}}},
			m{"target": ".", "effects": []any{m{"set": m{"s": "shut"}}}}}
	}
	if sh.nameArc {
		// the title inside a quoted string of a guard
		exec["on"].(m)["name"] = []any{
			m{"when": "world.s == '{{ tpl.title }}'", "target": ".", "effects": []any{m{"set": m{"log": "{{ world.log }}="}}}},
			m{"target": ".", "effects": []any{m{"set": m{"s": "{{ tpl.title }}"}}}}}
	}
	if sh.tplEnter {
		exec["on_enter"] = []any{m{"set": m{"s": "tpl {{ tpl.title }}"}}}
	}
	if sh.review {
		exec["on"].(m)["look"] = []any{m{"target": "{{ tpl.id }}_review"}}
	}
	if sh.kidExit != "" {
		exec["on"].(m)["delegate"] = []any{m{"target": "kid"}}
	}
	if sh.keyState {
		exec["on"].(m)["side"] = []any{m{"target": "{{ tpl.id }}_{{ tpl.kind }}"}}
	}
	if sh.skip {
		exec["on"].(m)["skip"] = []any{m{"target": "{{ phase.next.skip }}"}}
	}
	await := m{
		"view": "await {{ tpl.id }} s={{ world.s }} log={{ world.log }}",
		"on": m{
			"back": []any{m{"target": "{{ tpl.id }}_executing"}},
		},
	}
	for _, cp := range sh.cps {
		switch cp {
		case "approve":
			await["on"].(m)["approve"] = []any{m{"target": "{{ phase.next.done }}", "effects": []any{m{"set": m{"log": "{{ world.log }}+{{ tpl.id }}"}}}}}
		case "hold":
			await["on"].(m)["hold"] = []any{m{"target": ".", "effects": []any{m{"set": m{"s": "{{ slots.why }}"}}}}}
		case "veto":
			await["on"].(m)["veto"] = []any{m{"target": "{{ tpl.id }}_executing", "effects": []any{m{"set": m{"s": "veto {{ tpl.title }}"}}}}}
		}
	}
	if g.chance(40) {
		// a typed view: substitution reaches into its elements
		await["view"] = []any{m{"heading": "await {{ tpl.id }}"},
			m{"kv": m{"pairs": m{"title": "{{ tpl.title }}", "s": "{{ world.s }}", "next": "{{ phase.next.done }}"}}}}
	}
	if sh.ownCP != "" {
		await["intents"] = m{sh.ownCP: m{"description": "own " + sh.ownCP}}
	}
	states := m{
		"{id}_executing":      exec,
		"{id}_awaiting_reply": await,
		"{id}_error": m{"view": "error {{ tpl.id }} n={{ world.n }}",
			"on": m{"back": []any{m{"target": "{{ tpl.id }}_executing"}}, "next": []any{m{"target": "{{ phase.next.done }}"}}}},
	}
	if sh.review {
		states["{id}_review"] = m{"type": "compound", "initial": "r1", "view": "review {{ tpl.title }}",
			"on": m{"back": []any{m{"target": "{{ tpl.id }}_executing"}}},
			"states": m{
				"r1": m{"view": "r1 of {{ tpl.id }}", "on": m{"look": []any{m{"target": "{{ tpl.id }}_review.{id}_inner"}}}},
				// a nested key keeps {id} as written
				"{id}_inner": m{"view": "inner {{ tpl.id }} {{ tpl.ratio }}", "on": m{"look": []any{m{"target": "{{ tpl.id }}_executing"}}}},
			}}
	}
	if sh.keyState {
		states["{id}_{kind}"] = m{"view": "side {{ tpl.kind }} of {{ tpl.id }}",
			"on": m{"back": []any{m{"target": "{{ tpl.id }}_executing"}}}}
	}
	return states
}

// phaseStepExpr is bump's new n: world.n plus the step, the parameter
// substituted inside the expression.
func phaseStepExpr(step bool) string {
	if step {
		return "{{ world.n + {{ tpl.step }} }}"
	}
	return "{{ world.n + 1 }}"
}
