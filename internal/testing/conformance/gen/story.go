package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// m is a YAML mapping (yaml.v3 writes its keys sorted).
type m = map[string]any

// gen holds one story's random choices.
type gen struct {
	rnd     *rand.Rand
	leaves  []string // every state path an arc may target
	intents []string // plain intents (no slots)
	kid     bool     // the story imports a child under alias kid
	// withKnown adds the scalar forms known to differ (.inf, .nan), and
	// the non-zero default of n (an increment of it replays differently
	// on purpose: docs/compat/engine.md, conformance
	// values-increment-default).
	withKnown bool
	// legacy writes fixtures for the legacy path (-kind legacy).
	legacy bool
	// emits adds parallel emit: events to arms (-emits): on the
	// transition, or as an effect entry.
	emits bool
	// trail marks every on_enter and arm in world t (-trail), after the
	// random draws, so a seed writes the same story otherwise.
	trail    bool
	defaults m // each form var's default, for expect_world to name
	// text widens the agent kind's answer texts and the flow kind's
	// put slot and host.ok value (-text wide).
	text textOpts
}

// nDefault is world key n's default: 0, or with withKnown 0 or 3 (drawn
// either way, so a seed writes the same stories otherwise).
func (g *gen) nDefault() int {
	d := g.rnd.IntN(2) * 3
	if !g.withKnown {
		d = 0
	}
	return d
}

// formVars are the untyped world keys that hold scalar forms.
var formVars = []string{"x0", "x1", "x2"}

// The intents every story declares: go0..go5, put (one typed slot v),
// ping (what emit_intent sends).
var plainIntents = []string{"go0", "go1", "go2", "go3", "go4", "go5", "ping"}

func newGen(seed uint64) *gen {
	return &gen{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *gen) pick(xs ...string) string { return xs[g.rnd.IntN(len(xs))] }
func (g *gen) chance(pct int) bool      { return g.rnd.IntN(100) < pct }

// story builds the app.yaml of one story and, when it imports one, its
// child's.
func (g *gen) story(id string) (app, kid m) {
	g.kid = g.chance(30)
	g.intents = plainIntents
	g.defaults = m{}
	for _, k := range formVars {
		g.defaults[k] = g.form()
	}
	states := m{}
	// top-level leaves
	for i := range 4 {
		states[fmt.Sprintf("s%d", i)] = m{}
		g.leaves = append(g.leaves, fmt.Sprintf("s%d", i))
	}
	states["c"] = m{"type": "compound", "initial": "c1", "states": m{"c1": m{}, "c2": m{}}}
	g.leaves = append(g.leaves, "c", "c.c1", "c.c2")
	if g.chance(70) {
		states["p"] = m{"type": "parallel", "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{"a1": m{}, "a2": m{}}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{"b1": m{}, "b2": m{}}},
		}}
		g.leaves = append(g.leaves, "p", "p.ra", "p.ra.a1", "p.ra.a2", "p.rb.b1", "p.rb.b2")
	}
	if g.kid {
		g.leaves = append(g.leaves, "kid")
	}
	// fill every state with views, on_enter, timeouts and arms
	eachState("", states, func(path string, st m) {
		if _, ok := st["states"].(m); ok {
			if g.chance(40) {
				st["view"] = g.view()
			}
			if g.chance(40) {
				st["on_enter"] = g.effects(2, false)
			}
			st["on"] = g.arms(path, 1)
			return
		}
		if g.chance(80) {
			st["view"] = g.view()
		}
		if g.chance(50) {
			st["on_enter"] = g.effects(2, false)
		}
		if g.chance(25) {
			st["timeout"] = m{"after": g.pick("5m", "1h"), "target": g.target()}
		}
		if g.chance(10) && path != "s0" {
			st["terminal"] = true
		}
		st["on"] = g.arms(path, 1+g.rnd.IntN(3))
	})
	if g.trail {
		markTrail("", states)
	}
	app = m{
		"app":   m{"id": id, "version": "0.1.0"},
		"hosts": []any{"host.ok", "host.bad", "host.job"},
		"world": m{
			"n":           m{"type": "int", "default": g.nDefault()},
			"s":           m{"type": "string", "default": ""},
			"b":           m{"type": "bool", "default": false},
			"r":           m{"type": "string", "default": ""},
			"last_job_id": m{"type": "string", "default": ""},
			"x0":          m{"type": "any", "default": g.defaults["x0"]},
			"x1":          m{"type": "any", "default": g.defaults["x1"]},
			"x2":          m{"type": "any", "default": g.defaults["x2"]},
			"t":           m{"type": "string", "default": ""},
		},
		"intents": g.intentDecls(),
		"root":    "s0",
		"states":  states,
	}
	if g.kid {
		app["imports"] = m{"kid": m{
			"source": "./kid",
			"entry":  "k1",
			"exits":  m{"done": m{"to": g.pick("s0", "s1", "c"), "set": m{"s": "{{ world.kid__m }}"}}},
		}}
		kid = g.child()
	}
	return app, kid
}

func (g *gen) intentDecls() m {
	out := m{}
	for _, in := range g.intents {
		out[in] = m{"description": in}
	}
	slot := m{"type": g.pick("int", "string", "number", "bool")}
	if g.chance(50) {
		slot["required"] = true
	}
	out["put"] = m{"description": "put", "slots": m{"v": slot}}
	return out
}

// child is the imported story: two states, a counter, an exit.
func (g *gen) child() m {
	return m{
		"app":     m{"id": "kid", "version": "0.1.0"},
		"world":   m{"m": m{"type": "int", "default": 1 + g.rnd.IntN(3)}},
		"intents": m{"poke": m{"description": "poke"}, "quit": m{"description": "quit"}},
		"exits":   m{"done": m{"description": "done"}},
		"root":    "k1",
		"states": m{
			"k1": m{
				"view":     "K1 m={{ world.m }}",
				"on_enter": []any{m{"increment": m{"m": 1}}},
				"on":       m{"poke": []any{m{"target": "k2"}}, "quit": []any{m{"target": "@exit:done"}}},
			},
			"k2": m{
				"view": "K2 m={{ world.m }}",
				"on":   m{"poke": []any{m{"target": "k1", "effects": []any{m{"increment": m{"m": 2}}}}}, "quit": []any{m{"target": "@exit:done"}}},
			},
		},
	}
}

// target is a random state path (or a stay).
func (g *gen) target() string {
	if g.chance(10) {
		return "."
	}
	return g.leaves[g.rnd.IntN(len(g.leaves))]
}

// arms declares n intents on a state, each with one or two arms.
func (g *gen) arms(path string, n int) m {
	on := m{}
	names := append(slices.Clone(g.intents), "put")
	if g.kid && g.chance(30) {
		names = append(names, "kid__poke", "kid__quit")
	}
	for range n {
		in := names[g.rnd.IntN(len(names))]
		var list []any
		if g.chance(30) {
			list = append(list, m{"when": g.pick("world.n > 2", "world.b", "world.s == ''"), "target": g.target()})
		}
		arm := m{"target": g.target()}
		if g.chance(60) {
			arm["effects"] = g.effects(3, true)
		}
		if in == "put" && g.chance(70) {
			arm["effects"] = append(asList(arm["effects"]), m{"set": m{"s": "{{ slots.v }}"}})
		}
		if g.emits && g.chance(40) {
			// a parallel emit: the other regions take it as an intent
			ev := g.pick("ping", "go1", "go2", "go3")
			if g.chance(50) {
				arm["emit"] = []any{ev}
			} else {
				arm["effects"] = append(asList(arm["effects"]), m{"emit": ev})
			}
		}
		list = append(list, arm)
		on[in] = list
	}
	if on["ping"] == nil {
		// every state handles ping, the intent emit_intent sends (the
		// loader wants an emitted name declared on the state or above)
		on["ping"] = []any{m{"target": g.target()}}
	}
	_ = path
	return on
}

// markTrail appends a trail mark to every on_enter and arm under states
// (path is their parent's, "" at the top): E:<state>; and
// T:<state>.<intent>;, each a set of world t to itself plus the mark.
func markTrail(path string, states m) {
	mark := func(s string) m { return m{"set": m{"t": "{{ world.t + '" + s + ";' }}"}} }
	eachState(path, states, func(p string, st m) {
		st["on_enter"] = append(asList(st["on_enter"]), mark("E:"+p))
		if on, ok := st["on"].(m); ok {
			for _, in := range sortedKeys(on) {
				for _, a := range asList(on[in]) {
					if arm, ok := a.(m); ok {
						arm["effects"] = append(asList(arm["effects"]), mark("T:"+p+"."+in))
					}
				}
			}
		}
	})
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// effects is a random chain of up to n effects. arc: on a transition
// (an emit there may loop back; on_enter emits are rarer).
func (g *gen) effects(n int, arc bool) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		out = append(out, g.effect(arc))
	}
	return out
}

func (g *gen) effect(arc bool) m {
	switch g.rnd.IntN(16) {
	case 0:
		return m{"set": m{"n": g.rnd.IntN(9)}}
	case 1:
		return m{"set": m{"n": g.pick("7", "x", "{{ world.n }}")}}
	case 2:
		return m{"set": m{"b": g.pick("false", "true", "{{ world.n > 1 }}")}}
	case 3:
		return m{"set": m{"s": g.pick("hi", "{{ world.n }}", "{{ world.missing }}", "{{ world.r }}-x")}}
	case 4:
		return m{"increment": m{"n": 1 + g.rnd.IntN(3)}}
	case 5:
		return m{"increment": m{g.pick("s", "b"): 2}}
	case 6:
		return m{"say": g.pick("said {{ world.n }}", "said {{ slots.v }}", "said")}
	case 7:
		return m{"invoke": "host.ok", "with": m{"x": "{{ world.n }}"}, "bind": m{"r": "v"}}
	case 8:
		return m{"invoke": "host.ok", "with": m{"x": g.form()}, "bind": m{"r": "v", "x2": "w"}}
	case 9:
		e := m{"invoke": "host.bad", "with": m{"x": "1"}}
		if g.chance(70) {
			e["on_error"] = g.target()
		}
		return e
	case 10:
		oc := []any{m{"set": m{"s": "{{ last_job_status }}"}}}
		if g.chance(60) {
			// an on_complete target "." does not load upstream
			oc = append(oc, m{"target": g.leaves[g.rnd.IntN(len(g.leaves))]})
		}
		return m{"invoke": "host.job", "with": m{"x": "j"}, "background": true, "bind": m{"last_job_id": "job_id"}, "on_complete": oc}
	case 11:
		if arc || g.chance(30) {
			return m{"emit_intent": "ping"}
		}
		return m{"say": "no emit"}
	case 12:
		return m{"emit_intent": "{{ world.n > 2 ? 'ping' : '' }}"}
	case 13, 14:
		return m{"set": m{g.pick(formVars...): g.form()}}
	default:
		return m{"set": m{"s": "{{ world.s }}+", "n": "{{ world.n + 1 }}"}}
	}
}

// view is a random view: a template string or typed elements.
func (g *gen) view() any {
	switch g.rnd.IntN(7) {
	case 5, 6:
		return "X x0={{ world.x0 }} x1={{ world.x1 }} x2={{ world.x2 }}"
	case 0:
		return "V {{ state.path }} n={{ world.n }} s={{ world.s }}"
	case 1:
		return "V b={{ world.b }} r={{ world.r }} u={{ world.nope.x }} v={{ slots.v }}"
	case 2:
		return []any{m{"heading": "H {{ world.n }}"}, m{"kv": m{"pairs": m{"n": "{{ world.n }}", "s": "{{ world.s }}  "}}}, m{"kv": m{"pairs": m{"b": "{{ world.b }}"}}}}
	case 3:
		return []any{m{"prose": "P {{ world.r }}"}, m{"list": m{"items": []any{"one", m{"label": "two", "when": "world.n > 2"}}}}}
	default:
		return "V {{ world.n }}"
	}
}

// fixture is a random flow fixture for the story.
func (g *gen) fixture() m {
	f := m{
		"test_kind":        "flow",
		"app":              "../app.yaml",
		"use_orchestrator": true,
		"host_handlers": m{
			"host.ok":  m{"data": m{"v": g.pick(g.text.pool([]string{"R", "7", ""})...), "w": g.form()}},
			"host.bad": m{"error": "boom"},
			"host.job": m{"data": m{"v": "J"}, "delay": g.pick("1s", "10m")},
		},
	}
	if g.chance(70) {
		f["initial_state"] = "s0"
	}
	if g.legacy {
		// the legacy path starts in the state "" without one
		f["use_orchestrator"] = false
		if f["initial_state"] == nil {
			f["initial_state"] = g.leaves[g.rnd.IntN(len(g.leaves))]
		}
	}
	if g.chance(40) {
		f["initial_world"] = m{g.pick(formVars...): g.form()}
	}
	var turns []any
	names := append(slices.Clone(g.intents), "put", "put")
	if g.kid {
		names = append(names, "kid__poke", "kid__quit")
	}
	for range 5 + g.rnd.IntN(6) {
		if g.chance(20) && !g.legacy {
			turns = append(turns, m{"advance_clock": g.pick("2s", "6m", "2h")})
			continue
		}
		in := names[g.rnd.IntN(len(names))]
		slots := m{}
		if in == "put" && g.chance(80) {
			vs := []any{3, "many", "x", true, 2.5}
			if g.text.wide {
				vs = append(vs, wideAny...)
			}
			slots["v"] = vs[g.rnd.IntN(len(vs))]
		}
		turn := m{"intent": m{"name": in, "slots": slots}}
		if g.chance(30) {
			k := g.pick(formVars...)
			want := any(g.form())
			if g.chance(50) {
				// the default as written: both engines must read the
				// story's and the fixture's copy of one form alike
				want = g.defaults[k]
			}
			turn["expect_world"] = m{k: want}
		}
		turns = append(turns, turn)
	}
	f["turns"] = turns
	return f
}

func sortedKeys(x m) []string {
	ks := make([]string, 0, len(x))
	for k := range x {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
