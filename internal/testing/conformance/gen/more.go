package main

import (
	"math/rand/v2"
)

// -more (flow and legacy kinds) adds, after every other draw (-extras
// included) and from its own random source (so a seed writes the same
// story otherwise), constructs of story-runtime.md the other draws never
// make:
//   - once: true on host.ok invokes (§2.5), binding r or the any-typed
//     world key o, whose default and a fixture's initial_world are set or
//     unset in every form the skip reads ("", 0, false, {}, [], a string);
//   - emit_intent: put with rendered slots: (§1.7, §1.9), the slot's
//     value of another type than put's v at times; every state then
//     handles put (the hop fires where the arm lands), and a story that
//     imports a child (whose states cannot) draws none;
//   - transition view: on arms (§8), templated and typed;
//   - explicit self re-entry (§1.8): a leaf's arm naming the leaf itself;
//   - on_complete chains with guarded target entries ahead of the others
//     (§5 step 6): expr-syntax, result-reading and ../-climbing targets,
//     some naming no state, and a set: between them.
//
// A second source (rnd2, so the first draws stay as they were) adds: a
// say: in on_complete chains (§5), failing calls whose on_error is a
// template (§2.4: never rendered), and transition views with pongo2
// filters on the imported child's arms too.
type moreGen struct {
	rnd, rnd2 *rand.Rand
	leaves    []string
	puts      bool // a put emit was drawn
}

func newMoreGen(seed uint64, leaves []string) *moreGen {
	return &moreGen{rnd: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x61c8864680b583eb)),
		rnd2: rand.New(rand.NewPCG(seed^0x94d049bb133111eb, seed+0xbf58476d1ce4e5b9)), leaves: leaves}
}

func (x *moreGen) chance2(pct int) bool { return x.rnd2.IntN(100) < pct }
func (x *moreGen) pick2(xs ...string) string {
	return xs[x.rnd2.IntN(len(xs))]
}

func (x *moreGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *moreGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }
func (x *moreGen) leaf() string             { return x.leaves[x.rnd.IntN(len(x.leaves))] }

// onceForm is a value of o: unset ("", {}, []) or set (0, false, "x").
func (x *moreGen) onceForm() any {
	return []any{"", 0, false, m{}, []any{}, "x"}[x.rnd.IntN(6)]
}

// apply adds the draws to the story, its imported child (or nil) and its
// fixture.
func (x *moreGen) apply(app, kid, fixture m) {
	app["world"].(m)["o"] = m{"type": "any", "default": x.onceForm()}
	_, imports := app["imports"]
	states := app["states"].(m)
	x.walk("", states, !imports)
	if x.puts {
		handlePut(states)
	}
	if kid != nil {
		for _, k := range sortedKeys(kid["states"].(m)) {
			on, _ := kid["states"].(m)[k].(m)["on"].(m)
			for _, in := range sortedKeys(on) {
				for _, a := range asList(on[in]) {
					if arm, ok := a.(m); ok && x.chance2(30) {
						arm["view"] = x.pick2("KV m={{ world.m }}", "KV {{ state.path }} {{ world.m|add:1 }}")
					}
				}
			}
		}
	}
	if x.chance(40) {
		iw, _ := fixture["initial_world"].(m)
		if iw == nil {
			iw = m{}
		}
		iw["o"] = x.onceForm()
		fixture["initial_world"] = iw
	}
}

// handlePut gives every state under states without one a put arm that
// stays and keeps the slot.
func handlePut(states m) {
	eachState("", states, func(_ string, st m) {
		on, _ := st["on"].(m)
		if on == nil {
			on = m{}
			st["on"] = on
		}
		if on["put"] == nil {
			on["put"] = []any{m{"target": ".", "effects": []any{m{"set": m{"s": "{{ slots.v }}"}}}}}
		}
	})
}

// walk draws on every state under states; put: put emits may be drawn.
func (x *moreGen) walk(path string, states m, put bool) {
	eachState(path, states, func(p string, st m) {
		on, _ := st["on"].(m)
		_, compound := st["states"].(m)
		for _, in := range sortedKeys(on) {
			for _, a := range asList(on[in]) {
				arm, ok := a.(m)
				if !ok {
					continue
				}
				if x.chance(12) {
					arm["view"] = x.view()
				}
				if arm["view"] == nil && x.chance2(8) {
					arm["view"] = x.pick2("TV {{ world.s|upper }} {{ slots.v|default:'none' }}", "TV {{ world.n|add:1 }}")
				}
				if !compound && x.chance(8) {
					arm["target"] = p
				}
				x.effects(arm, "effects", put)
			}
		}
		x.effects(st, "on_enter", put)
	})
}

// view is a transition view.
func (x *moreGen) view() any {
	switch x.rnd.IntN(4) {
	case 0:
		return "TV n={{ world.n }} s={{ world.s }}"
	case 1:
		return "TV v={{ slots.v }} o={{ world.o }}"
	case 2:
		return []any{m{"heading": "TV {{ world.n }}"}, m{"prose": "o={{ world.o }}"}}
	}
	return "TV"
}

// effects draws once:, on_complete targets and a slotted emit_intent on
// holder[key].
func (x *moreGen) effects(holder m, key string, put bool) {
	list := asList(holder[key])
	for _, e := range list {
		em, ok := e.(m)
		if !ok {
			continue
		}
		if em["invoke"] == "host.ok" && x.chance(50) {
			em["once"] = true
			if x.chance(50) {
				em["bind"] = m{"o": "v"}
			}
		}
		if oc := asList(em["on_complete"]); oc != nil && x.chance(50) {
			guarded := m{"when": x.pick("world.n > 1", "world.last_job_status == 'done'", "world.b", "world.o == ''"),
				"target": x.pick("{{ world.n > 1 ? 's1' : 's2' }}", "s{{ world.last_job_result.v }}", "../{{ 'c2' }}", "{{ world.s }}", x.leaf())}
			em["on_complete"] = append([]any{m{"set": m{"n": "{{ world.n + 1 }}"}}, guarded}, oc...)
		}
	}
	for _, e := range list {
		if em, ok := e.(m); ok && em["on_complete"] != nil && x.chance2(30) {
			oc := asList(em["on_complete"])
			em["on_complete"] = append([]any{m{"say": x.pick2("job {{ world.last_job_status }}", "job {{ world.n }}")}}, oc...)
		}
	}
	if x.chance2(8) {
		list = append(list, m{"invoke": "host.bad", "with": m{"x": "1"}, "on_error": x.pick2("{{ 's1' }}", "s{{ world.n }}", "{{ world.r }}")})
	}
	if put && x.chance(15) {
		v := []any{"{{ world.n }}", "7", "{{ world.s }}", "x", "{{ world.nope }}", "{{ world.n > 1 }}", 2.5}[x.rnd.IntN(7)]
		list = append(list, m{"emit_intent": "put", "slots": m{"v": v}})
		x.puts = true
	}
	if len(list) > 0 {
		holder[key] = list
	}
}
