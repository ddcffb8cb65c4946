package main

import (
	"math/rand/v2"
	"strings"
)

// -deep (flow and legacy kinds) adds, after every other draw and from its
// own random source (so a seed writes the same story otherwise), a third
// level of states and the target forms of story-format §4.3 that the other
// draws leave out:
//   - the leaf c.c2 becomes a compound (d1, d2, a literal or templated
//     initial:), and the region leaf p.ra.a2 one too (x1, x2), each new
//     state with a view, an on_enter and arms, so entering climbs three
//     levels, a region leaf is two levels deep, and the ancestor walk of
//     §1.5 passes a compound that has arms of its own;
//   - targets written relative (../x, ../../x, a bare .. naming the
//     parent, climbing out of a region into the other or out of the
//     parallel root) and as slash paths (c/c2/d2), on the new states' arms
//     and on some of the story's own, timeouts and on_complete targets;
//   - a state-local intent loc (declared in intents: of c.c2 and of the
//     region leaf, handled there and reached from their children), which
//     the fixture sends;
//   - parallel emit: events in other company: on an entry whose when:
//     fails, on an invoke entry, on a set: entry, in an on_enter list (never
//     collected, §3.5) and in an on_complete chain; the new region leaves
//     receive them;
//   - a "*" arm on the new compound.
//
// A second source (rnd2, so the first draws stay as they were) adds
// decision-gate neighbours on the new states: decider: pins, "*" arms on
// the new leaves that move or stay, stays (".", none) on the new compound
// for intents its leaves also handle, and literal and templated
// emit_intent entries in the new leaves' on_enter.
//
// The fixture gets a few more turns (loc, the plain intents, a clock turn
// off the legacy path).
type deepGen struct {
	rnd    *rand.Rand
	rnd2   *rand.Rand
	trail  bool
	legacy bool
	paths  []string // every state path of the story, the new ones included
}

func newDeepGen(seed uint64, trail, legacy bool) *deepGen {
	return &deepGen{rnd: rand.New(rand.NewPCG(seed^0x7fb5d329728ea185, seed+0x81dadef4bc2dd44d)),
		rnd2: rand.New(rand.NewPCG(seed^0x4cf5ad432745937f, seed+0x2127599bf4325c37)), trail: trail, legacy: legacy}
}

func (x *deepGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *deepGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }
func (x *deepGen) path() string             { return x.paths[x.rnd.IntN(len(x.paths))] }

// apply adds the draws to the story and its fixture (the imported child's
// states are left alone: an import rewrites their targets).
func (x *deepGen) apply(app, fixture m) {
	states := app["states"].(m)
	intents := app["intents"].(m)
	if x.chance(20) { // loc is state-local, and at times global too
		intents["loc"] = m{"description": "loc (global)"}
	}
	c2 := states["c"].(m)["states"].(m)["c2"].(m)
	x.deepen("c.c2", c2, "d", x.chance(30))
	var a2 m
	if p, ok := states["p"].(m); ok && x.chance(70) {
		a2 = p["states"].(m)["ra"].(m)["states"].(m)["a2"].(m)
		x.deepen("p.ra.a2", a2, "x", false)
	}
	x.paths = nil
	collectPaths(states, &x.paths)
	if _, ok := app["imports"]; ok {
		x.paths = append(x.paths, "kid")
	}
	x.newArms("c.c2", c2)
	if a2 != nil {
		x.newArms("p.ra.a2", a2)
		x.emits(states["p"].(m))
	}
	x.retarget("", states)
	x.gates("c.c2", c2)
	if a2 != nil {
		x.gates("p.ra.a2", a2)
	}
	x.fixture(fixture)
}

func (x *deepGen) chance2(pct int) bool { return x.rnd2.IntN(100) < pct }
func (x *deepGen) pick2s(xs ...string) string {
	return xs[x.rnd2.IntN(len(xs))]
}

// gates adds the second source's decision-gate neighbours to the new
// compound at path and its leaves.
func (x *deepGen) gates(path string, st m) {
	if x.chance2(30) {
		st["decider"] = x.pick2s("human", "human", "llm")
	}
	on := st["on"].(m)
	kids := st["states"].(m)
	for _, k := range sortedKeys(kids) {
		kid := kids[k].(m)
		kon := kid["on"].(m)
		if x.chance2(40) {
			kid["decider"] = x.pick2s("human", "human", "llm")
		}
		if x.chance2(25) && kon["*"] == nil {
			kon["*"] = []any{m{"target": x.pick2s(".", "s1", "c.c1", path+"."+k)}}
		}
		names := sortedKeys(kon)
		if x.chance2(30) {
			// a stay on the compound for an intent of the leaf's
			in := names[x.rnd2.IntN(len(names))]
			if in != "*" && in != "loc" && on[in] == nil {
				arm := m{}
				if x.chance2(50) {
					arm["target"] = "."
				}
				arm["effects"] = []any{m{"increment": m{"n": 1}}}
				on[in] = []any{arm}
			}
		}
		if x.chance2(30) {
			var e m
			if in := names[x.rnd2.IntN(len(names))]; in != "*" && in != "put" && x.chance2(60) {
				e = m{"emit_intent": in}
			} else {
				e = m{"emit_intent": x.pick2s("{{ world.n > 1 ? 'go1' : '' }}", "{{ 'ping' }}")}
			}
			kid["on_enter"] = append(asList(kid["on_enter"]), e)
		}
	}
}

// deepen makes the leaf st at path a compound with children <pre>1 and
// <pre>2, declaring the state-local intent loc; tmpl: a templated initial.
func (x *deepGen) deepen(path string, st m, pre string, tmpl bool) {
	one, two := pre+"1", pre+"2"
	st["type"] = "compound"
	st["initial"] = one
	if tmpl {
		st["initial"] = "{% if world.n > 1 %}" + two + "{% else %}" + one + "{% endif %}{{ '' }}"
	}
	st["intents"] = m{"loc": m{"description": "loc at " + path}}
	kids := m{}
	for _, k := range []string{one, two} {
		kid := m{}
		if x.chance(80) {
			kid["view"] = x.pick("D {{ state.path }} n={{ world.n }}", "D "+k+" t={{ world.t }}", "D {{ world.s }}")
		}
		if x.chance(60) {
			kid["on_enter"] = []any{x.pick2(
				m{"increment": m{"n": 1}},
				m{"set": m{"s": "{{ world.s }}" + k}},
				m{"emit_intent": "{{ world.n > 3 ? 'ping' : '' }}"},
				m{"say": "in " + k + " {{ world.n }}"},
			)}
		}
		kids[k] = kid
	}
	if x.chance(30) {
		kids[one].(m)["intents"] = m{"loc": m{"description": "loc at " + one}}
	}
	st["states"] = kids
}

// pick2 is pick for mappings.
func (x *deepGen) pick2(xs ...m) m { return xs[x.rnd.IntN(len(xs))] }

// newArms gives the new compound at path, and its children, arms whose
// targets are drawn in every form, a "*" arm at times, and timeouts on the
// children.
func (x *deepGen) newArms(path string, st m) {
	on, _ := st["on"].(m)
	if on == nil {
		on = m{}
		st["on"] = on
	}
	on["loc"] = []any{m{"target": x.target(path), "effects": []any{m{"set": m{"s": "{{ world.s }}L"}}}}}
	if x.chance(30) {
		on["*"] = []any{m{"target": x.target(path), "effects": []any{m{"set": m{"s": "{{ world.s }}*"}}}}}
	}
	var marks []string
	marks = append(marks, "loc")
	if on["*"] != nil {
		marks = append(marks, "*")
	}
	if x.trail {
		for _, in := range marks {
			for _, a := range asList(on[in]) {
				arm := a.(m)
				arm["effects"] = append(asList(arm["effects"]), m{"set": m{"t": "{{ world.t + 'T:" + path + "." + in + ";' }}"}})
			}
		}
	}
	kids := st["states"].(m)
	for _, k := range sortedKeys(kids) {
		kp := path + "." + k
		kid := kids[k].(m)
		kon := m{}
		for range 1 + x.rnd.IntN(3) {
			in := x.pick("go0", "go1", "go2", "go3", "go4", "go5", "put")
			var list []any
			if x.chance(30) {
				list = append(list, m{"when": x.pick("world.n > 2", "world.b"), "target": x.target(kp)})
			}
			arm := m{"target": x.target(kp)}
			if x.chance(40) {
				arm["effects"] = []any{m{"increment": m{"n": 1 + x.rnd.IntN(2)}}}
			}
			kon[in] = append(list, arm)
		}
		kon["ping"] = []any{m{"target": x.target(kp)}}
		if kid["intents"] != nil {
			kon["loc"] = []any{m{"target": x.target(kp)}}
		}
		kid["on"] = kon
		if x.chance(30) {
			kid["timeout"] = m{"after": x.pick("90s", "5m"), "target": x.target(kp)}
		}
		if x.trail {
			markTrail(path, m{k: kid})
		}
	}
}

// target is a state path for an arm at path in any form: absolute,
// slash-separated, relative, stay, self.
func (x *deepGen) target(path string) string {
	d := x.path()
	switch x.rnd.IntN(10) {
	case 0, 1:
		return strings.ReplaceAll(d, ".", "/")
	case 2, 3, 4, 5:
		if r := relative(path, d, 1+x.rnd.IntN(strings.Count(path, ".")+1)); r != "" {
			return r
		}
	case 6:
		return x.pick(".", path)
	}
	return d
}

// relative writes dest as seen from path, climbing up levels ("../"
// each): "" when dest is not under what is left, ".." alone for the
// parent itself.
func relative(path, dest string, up int) string {
	segs := strings.Split(path, ".")
	if up > len(segs) {
		return ""
	}
	base := strings.Join(segs[:len(segs)-up], ".")
	rest := dest
	if base != "" {
		if dest == base {
			if up == 1 {
				return ".."
			}
			return ""
		}
		if !strings.HasPrefix(dest, base+".") {
			return ""
		}
		rest = strings.TrimPrefix(dest, base+".")
	}
	return strings.Repeat("../", up) + strings.ReplaceAll(rest, ".", "/")
}

// collectPaths appends every state path under states.
func collectPaths(states m, out *[]string) {
	eachState("", states, func(kp string, _ m) { *out = append(*out, kp) })
}

// emits draws parallel emit: events in other company on the arms of the
// parallel root's regions, and arms on the new region leaves that take
// them.
func (x *deepGen) emits(p m) {
	eachState("p", p["states"].(m), func(_ string, st m) {
		on, _ := st["on"].(m)
		for _, in := range sortedKeys(on) {
			for _, a := range asList(on[in]) {
				arm, ok := a.(m)
				if !ok || !x.chance(25) {
					continue
				}
				ev := x.pick("ping", "go1", "go2", "go3")
				var e m
				switch x.rnd.IntN(5) {
				case 0:
					e = m{"when": x.pick("world.n > 100", "world.nope.x == 1", "world.b"), "emit": ev}
				case 1:
					e = m{"invoke": "host.ok", "with": m{"x": "{{ world.n }}"}, "bind": m{"r": "v"}, "emit": ev}
				case 2:
					e = m{"set": m{"n": "{{ world.n + 1 }}"}, "emit": ev}
				case 3:
					e = m{"invoke": "host.job", "with": m{"x": "j"}, "background": true, "bind": m{"last_job_id": "job_id"},
						"on_complete": []any{m{"emit": ev}, m{"set": m{"s": "{{ world.s }}C"}}}}
				default:
					e = m{"say": "emit " + ev, "emit": ev}
				}
				arm["effects"] = append([]any{e}, asList(arm["effects"])...)
			}
		}
		if x.chance(20) {
			st["on_enter"] = append([]any{m{"emit": x.pick("ping", "go2")}}, asList(st["on_enter"])...)
		}
	})
}

// retarget moves some of the story's own arms, timeouts and on_complete
// targets to a target drawn in any form (the new states among them).
func (x *deepGen) retarget(p string, states m) {
	eachState(p, states, func(kp string, st m) {
		on, _ := st["on"].(m)
		for _, in := range sortedKeys(on) {
			for _, a := range asList(on[in]) {
				if arm, ok := a.(m); ok && x.chance(12) {
					arm["target"] = x.target(kp)
				}
			}
		}
		if to, ok := st["timeout"].(m); ok && x.chance(20) {
			to["target"] = x.target(kp)
		}
		for _, e := range asList(st["on_enter"]) {
			em, ok := e.(m)
			if !ok {
				continue
			}
			for _, o := range asList(em["on_complete"]) {
				if om, ok := o.(m); ok && om["target"] != nil && x.chance(30) {
					om["target"] = x.target(kp)
				}
			}
		}
	})
}

// fixture adds a few turns: loc, the plain intents, a clock turn (not on
// the legacy path).
func (x *deepGen) fixture(f m) {
	turns := asList(f["turns"])
	for range 2 + x.rnd.IntN(3) {
		var t m
		switch {
		case !x.legacy && x.chance(15):
			t = m{"advance_clock": x.pick("90s", "6m")}
		case x.chance(50):
			t = m{"intent": m{"name": "loc", "slots": m{}}}
		default:
			t = m{"intent": m{"name": x.pick("go0", "go1", "go2", "go3", "go4", "go5", "ping"), "slots": m{}}}
		}
		at := x.rnd.IntN(len(turns) + 1)
		turns = append(turns[:at], append([]any{t}, turns[at:]...)...)
	}
	f["turns"] = turns
}
