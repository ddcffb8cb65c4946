package main

import (
	"math/rand/v2"
	"slices"
)

// -extras (flow and legacy kinds) adds, after every other draw and from
// its own random source (so a seed writes the same story otherwise), the
// parts of the story format the flow kind's draws leave out:
//   - timeouts where only some count upstream: on the compound c, the
//     parallel root p, a region leaf, the imported child's states (whose
//     bare targets the import rewrites), with relative (../c2), templated
//     and compound targets and afters in other units (90s, 1d, 1h30m);
//   - "*" wildcard arms on leaves and on the compound c;
//   - effect-level when: guards, some of which fail to evaluate;
//   - effect entries carrying two kinds at once (only the first runs);
//   - guard_hint on failing arms, default: true arms ahead of others;
//   - templated arc targets (pongo2), some naming no state;
//   - templated initial: on the compound c and the region rb, templated
//     on_complete targets, guarded emit_intent: ping.
//
// The fixture's clock turns take the same units (1d, 25h, 90s).

// extraGen draws the extras of one story.
type extraGen struct {
	rnd    *rand.Rand
	leaves []string
	legacy bool
}

func newExtraGen(seed uint64, leaves []string, legacy bool) *extraGen {
	return &extraGen{rnd: rand.New(rand.NewPCG(seed^0x5bd1e995, seed+0x27d4eb2f165667c5)), leaves: leaves, legacy: legacy}
}

func (x *extraGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *extraGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }
func (x *extraGen) leaf() string             { return x.leaves[x.rnd.IntN(len(x.leaves))] }

// timeout is a timeout: block with an after in any unit and a target of
// any form (path, relative, templated, compound, stay).
func (x *extraGen) timeout(relative string) m {
	t := x.leaf()
	switch x.rnd.IntN(6) {
	case 0:
		if relative != "" {
			t = relative
		}
	case 1:
		t = x.pick("{{ 's2' }}", "{% if world.n > 1 %}s1{% else %}s3{% endif %}{{ '' }}")
	case 2:
		t = x.pick("c", "p", ".")
	}
	if t == "p" && !slices.Contains(x.leaves, "p") {
		t = "c"
	}
	return m{"after": x.pick("90s", "1d", "1h30m", "5m", "25h"), "target": t}
}

// apply adds the extras to the story's states (and the child's, when
// the story imports one) and to the fixture's turns.
func (x *extraGen) apply(states m, kid m, fixture m) {
	c := states["c"].(m)
	if x.chance(50) {
		c["timeout"] = x.timeout("")
	}
	if x.chance(40) {
		c["states"].(m)["c1"].(m)["timeout"] = x.timeout("../c2")
	}
	if p, ok := states["p"].(m); ok {
		if x.chance(50) {
			p["timeout"] = x.timeout("")
		}
		if x.chance(40) {
			ra := p["states"].(m)["ra"].(m)
			ra["states"].(m)["a1"].(m)["timeout"] = x.timeout("../a2")
		}
	}
	if x.chance(40) {
		c["initial"] = x.pick("{% if world.n > 2 %}c2{% else %}c1{% endif %}{{ '' }}", "{% if world.b %}c2{% else %}c1{% endif %}{{ '' }}")
	}
	if p, ok := states["p"].(m); ok && x.chance(40) {
		p["states"].(m)["rb"].(m)["initial"] = "{% if world.n > 1 %}b2{% else %}b1{% endif %}{{ '' }}"
	}
	if kid != nil && x.chance(60) {
		kid["states"].(m)["k1"].(m)["timeout"] = m{"after": x.pick("90s", "5m"), "target": "k2"}
	}
	x.walk("", states)
	var turns []any
	for _, t := range asList(fixture["turns"]) {
		if tm, ok := t.(m); ok && tm["advance_clock"] != nil && x.chance(50) {
			tm["advance_clock"] = x.pick("1d", "25h", "90s", "1h30m")
		}
		if !x.legacy && x.chance(15) {
			turns = append(turns, m{"advance_clock": x.pick("1d", "90s", "2h")})
		}
		turns = append(turns, t)
	}
	fixture["turns"] = turns
}

// walk adds wildcard arms, guards, two-kind entries, hints, default
// arms and templated targets to every state under states.
func (x *extraGen) walk(path string, states m) {
	eachState(path, states, func(_ string, st m) {
		on, _ := st["on"].(m)
		if on == nil {
			on = m{}
			st["on"] = on
		}
		if st["type"] != "parallel" && x.chance(30) {
			on["*"] = []any{m{"target": x.leaf(), "effects": []any{m{"set": m{"s": "{{ world.s }}*"}}}}}
		}
		for _, in := range sortedKeys(on) {
			arms := asList(on[in])
			for _, a := range arms {
				arm := a.(m)
				if x.chance(25) {
					arm["target"] = x.pick("{% if world.n > 2 %}s1{% else %}s2{% endif %}{{ '' }}", "s{{ world.n }}", "{{ world.r }}", "{{ state.path }}")
				}
				x.effects(arm, "effects")
			}
			switch x.rnd.IntN(8) {
			case 0:
				arms = append([]any{m{"when": x.pick("world.n > 4", "world.b"), "guard_hint": "need {{ world.n }}", "target": x.leaf()}}, arms...)
			case 1:
				arms = append([]any{m{"default": true, "target": x.leaf()}}, arms...)
			case 2:
				arms = []any{m{"when": "world.n > 100", "guard_hint": x.pick("too few", "n={{ world.n }}"), "target": x.leaf()}}
			}
			on[in] = arms
		}
		x.effects(st, "on_enter")
	})
}

// effects guards some effects of holder[key] and adds a two-kind entry.
func (x *extraGen) effects(holder m, key string) {
	list := asList(holder[key])
	for _, e := range list {
		em, ok := e.(m)
		if !ok || em["when"] != nil {
			continue
		}
		if set, ok := em["set"].(m); ok && set["t"] != nil {
			continue // a -trail mark stays unguarded
		}
		if x.chance(20) {
			em["when"] = x.pick("world.n > 1", "world.b", "world.s == ''", "world.nope.x == 1", "slots.v == 3")
		}
	}
	for _, e := range list {
		em, ok := e.(m)
		if !ok || em["on_complete"] == nil || !x.chance(40) {
			continue
		}
		oc := asList(em["on_complete"])
		em["on_complete"] = append(oc, m{"target": x.pick("s{{ world.n }}", "{% if world.n > 2 %}s1{% else %}s2{% endif %}{{ '' }}", "{{ 'c' }}")})
	}
	if x.chance(10) {
		list = append(list, m{"emit_intent": x.pick("ping", "{{ world.n > 1 ? 'ping' : '' }}"), "when": x.pick("world.n > 1", "world.nope.x == 1", "world.b")})
	}
	if x.chance(15) {
		two := []m{
			{"set": m{"s": "two"}, "invoke": "host.ok", "with": m{"x": "1"}, "bind": m{"r": "v"}},
			{"say": "two {{ world.n }}", "increment": m{"n": 1}},
			{"increment": m{"n": 2}, "emit_intent": "ping"},
			{"set": m{"b": true}, "say": "unsaid"},
		}
		list = append(list, two[x.rnd.IntN(len(two))])
	}
	if len(list) > 0 {
		holder[key] = list
	}
}
