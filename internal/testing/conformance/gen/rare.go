package main

import (
	"math/rand/v2"
	"slices"
)

// -rare (flow and legacy kinds) draws, after every other draw and from its
// own random source, the semantics only the hand-made conformance goldens
// reached before (a coverage inventory of the engine under the gen
// batches):
//   - an on_error chain past the redirect depth cap (story-runtime §2.4):
//     states q1 and q2, either of them terminal now and then, whose
//     on_enter changes the world and calls host.bad with on_error naming
//     the other (or itself, or a compound's leaf), entered by a new intent
//     cap from arms (after a say: or a bind), through a room qh whose
//     bind and emit_intent hop lead into it, and now and then by a
//     timeout, an on_complete target or another state's redirect; fixture
//     turns send cap with the assertions a capped turn is checked by
//     (expect_error and its mode, expect_state, a view match,
//     expect_world) — conformance cap-view, expect-error-mode-capped;
//   - set: values computed to an infinite or NaN number ({{ 1 / world.n }}
//     while n is 0, {{ 1 / (world.n - world.n) }}), at times after a
//     finite set of the same key and before another, into the any keys, n
//     and a float key f, on arms, on_enter lists and the loop, with views
//     printing them (conformance values-non-finite,
//     values-non-finite-logged);
//   - templated targets that may render @exit:done ({{ '@exit:done' }},
//     {{ world.ex }} with arms moving ex): an arm of the story and of the
//     imported child, a timeout (conformance template-target-exit);
//   - on_complete chains that bind and then fail into on_error ".", whose
//     writes upstream drops while the rest of the chain reads them: a
//     guarded or templated target and a set after them (conformance
//     oncomplete-dropped-binds-in-memory);
//   - background jobs whose work is an agent call, answered by stubs, a
//     host cassette or nothing, with the cost keys asserted
//     (rare_agentjobs.go);
//   - emit_intent hops whose slots render NaN or ±Inf in jobs'
//     on_complete chains and a timeout target's on_enter
//     (rare_losthops.go).
//
// As -jobs and -redirects do, no target it draws names a state whose
// on_enter submits a job (a job submitted in a clock drain aborts the run
// upstream), and the legacy path gets no timeout (no clock turn there).
type rareGen struct {
	rnd     *rand.Rand
	legacy  bool
	paths   []string        // the story's state paths before the loop
	submits map[string]bool // states entering which submits a job (submitsOnEntry)
}

func newRareGen(seed uint64, legacy bool) *rareGen {
	return &rareGen{rnd: rand.New(rand.NewPCG(seed^0x510e527fade682d1, seed+0x9b05688c2b3e6c1f)), legacy: legacy, submits: map[string]bool{}}
}

func (x *rareGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *rareGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }
func (x *rareGen) path() string             { return x.paths[x.rnd.IntN(len(x.paths))] }

// apply adds the draws to the story, its child (nil when none) and the
// fixture; files are the story's further files by path (nil when none).
func (x *rareGen) apply(app, kid, fx m) (files map[string]any) {
	states := app["states"].(m)
	collectPaths(states, &x.paths)
	for _, p := range x.paths {
		// its own on_enter, an ancestor's, a parallel sibling region's or
		// an initial descendant's: a hop or landing there in a clock drain
		// submits a job upstream never idles on (scheduler WaitIdle)
		if submitsOnEntry(app, kid, p) {
			x.submits[p] = true
		}
	}
	app["world"].(m)["f"] = m{"type": "float", "default": 1.5}
	app["intents"].(m)["cap"] = m{"description": "cap"}
	x.nonFinite(states)
	x.dropped(states)
	x.exits(app, states, kid)
	x.loop(states)
	x.capTurns(fx)
	files = x.agentJobs(app, kid, fx)
	x.lostHops(app)
	return files
}

// nonFiniteSets is a set: whose value renders to +Inf, -Inf or NaN while
// world.n is 0 (or always), and to a finite number after n moved; now
// and then after a finite set of the same key and before a second
// non-finite one, so a lost set follows a set of the same turn.
func (x *rareGen) nonFiniteSets() []any {
	k := x.pick("x0", "x1", "f", "f", "n")
	v := func() m {
		return m{"set": m{k: x.pick("{{ 1 / world.n }}", "{{ 0 / world.n }}", "{{ -1 / world.n }}", "{{ world.n * 1e308 * 1e308 }}",
			"{{ world.n / world.n }}", "{{ 1 / (world.n - world.n) }}", "{{ (world.n - world.n) / (world.n - world.n) }}")}}
	}
	if x.chance(25) {
		return []any{m{"set": m{k: 7}}, v(), v()}
	}
	return []any{v()}
}

// nonFinite puts one to three non-finite sets on arms and on_enter lists,
// and a view printing them on a state or two.
func (x *rareGen) nonFinite(states m) {
	for range 1 + x.rnd.IntN(3) {
		st := stateAt(states, x.path())
		if on, ok := st["on"].(m); ok && x.chance(70) {
			ks := sortedKeys(on)
			if arms := asList(on[ks[x.rnd.IntN(len(ks))]]); len(arms) > 0 {
				if arm, ok := arms[len(arms)-1].(m); ok {
					arm["effects"] = append(asList(arm["effects"]), x.nonFiniteSets()...)
					continue
				}
			}
		}
		st["on_enter"] = append(asList(st["on_enter"]), x.nonFiniteSets()...)
	}
	for range 1 + x.rnd.IntN(2) {
		if st := stateAt(states, x.path()); st["type"] == nil {
			st["view"] = "F f={{ world.f }} x0={{ world.x0 }} x1={{ world.x1 }} n={{ world.n }}"
		}
	}
}

// aim is a state path no job is submitted from entering, or "".
func (x *rareGen) aim() string {
	for range 4 {
		if p := x.path(); !x.submits[p] {
			return p
		}
	}
	return ""
}

// out is a way out of the loop: a state no job is submitted from
// entering, or a stay.
func (x *rareGen) out() string {
	if p := x.aim(); p != "" {
		return p
	}
	return "."
}

// dropped grows half the story's on_complete chains with a bind and a
// failing call whose on_error names no state, then reads what they wrote.
func (x *rareGen) dropped(states m) {
	walk := func(list []any) {
		for _, e := range list {
			em, ok := e.(m)
			if !ok || em["on_complete"] == nil || !x.chance(50) {
				continue
			}
			chain := []any{
				m{"invoke": "host.ok", "with": m{"x": "c"}, "bind": m{"r": "v"}},
				m{"invoke": "host.bad", "with": m{"x": "1"}, "on_error": "."},
			}
			if x.chance(40) {
				chain = append(chain, m{"set": m{"s": "c={{ world.r }};{{ world.last_error }}"}})
			}
			for _, c := range asList(em["on_complete"]) {
				cm, ok := c.(m)
				if t, isTarget := cm["target"].(string); ok && isTarget {
					switch alt := x.aim(); {
					case x.chance(40) && cm["when"] == nil:
						cm["when"] = x.pick("world.r != ''", "world.r == 'R'", "world.last_error != ''")
					case x.chance(40) && alt != "":
						cm["target"] = "{{ world.r == '' ? '" + t + "' : '" + alt + "' }}"
					}
				}
				chain = append(chain, c)
			}
			em["on_complete"] = chain
		}
	}
	x.eachEffectList(states, walk)
}

// eachEffectList calls walk with the on_enter list and each arm's
// effects: list of every state at x.paths, in path and intent order.
func (x *rareGen) eachEffectList(states m, walk func([]any)) {
	for _, p := range x.paths {
		st := stateAt(states, p)
		walk(asList(st["on_enter"]))
		if on, ok := st["on"].(m); ok {
			for _, k := range sortedKeys(on) {
				for _, a := range asList(on[k]) {
					if am, ok := a.(m); ok {
						walk(asList(am["effects"]))
					}
				}
			}
		}
	}
}

// exitTarget is a templated target that renders @exit:done, or does when
// world.ex holds it. A user turn's arc target renders with pongo2
// upstream, where a ? : ternary is turn-fatal (docs/compat/engine.md
// "Transition target templates"), so no form here has one.
func (x *rareGen) exitTarget() string {
	return x.pick("{{ '@exit:done' }}", "{{ world.ex }}", "{{ world.ex }}")
}

// exits draws the templated targets that may render @exit:done.
func (x *rareGen) exits(app, states, kid m) {
	if x.chance(50) {
		app["exits"] = m{"done": m{"description": "done"}}
	}
	app["world"].(m)["ex"] = m{"type": "string", "default": x.pick("@exit:done", "@exit:done", x.out())}
	for range x.rnd.IntN(4) {
		st := stateAt(states, x.pick("s0", x.path(), x.path()))
		if on, ok := st["on"].(m); ok {
			arm := m{"target": x.exitTarget()}
			if x.chance(40) {
				arm["view"] = "TV {{ state.path }} n={{ world.n }}"
			}
			if x.chance(40) {
				arm["effects"] = []any{m{"say": "bye {{ world.n }}"}}
			}
			// not an intent an emit sends: an emit hop's target renders
			// with the expr syntax upstream
			in := x.pick("go5", "go4")
			on[in] = append([]any{arm}, asList(on[in])...)
		}
	}
	// arms that point world.ex elsewhere and back
	for range x.rnd.IntN(3) {
		st := stateAt(states, x.path())
		if on, ok := st["on"].(m); ok {
			ks := sortedKeys(on)
			if arms := asList(on[ks[x.rnd.IntN(len(ks))]]); len(arms) > 0 {
				if arm, ok := arms[len(arms)-1].(m); ok {
					arm["effects"] = append(asList(arm["effects"]), m{"set": m{"ex": x.pick("@exit:done", x.out())}})
				}
			}
		}
	}
	if !x.legacy && x.chance(20) {
		if st := stateAt(states, x.path()); st["type"] == nil && st["timeout"] == nil {
			st["timeout"] = m{"after": "5m", "target": x.exitTarget()}
		}
	}
	if kid != nil && x.chance(60) {
		k := x.pick("k1", "k2")
		on := kid["states"].(m)[k].(m)["on"].(m)
		on["quit"] = []any{m{"target": x.pick("{{ '@exit:done' }}", "{% if world.m > 2 %}{{ '@exit:done' }}{% else %}k2{% endif %}")}}
	}
}

// loop adds the states q1 and q2 whose failing calls redirect into each
// other until the depth cap stops the chain, and the ways into them.
func (x *rareGen) loop(states m) {
	enter := func(tag, next string) []any {
		var out []any
		switch x.rnd.IntN(4) {
		case 0:
			out = append(out, m{"set": m{"n": "{{ world.n + 1 }}"}})
		case 1:
			out = append(out, m{"set": m{"s": "{{ world.s }}" + tag}})
		case 2:
			out = append(out, x.nonFiniteSets()...)
		}
		return append(out, m{"invoke": "host.bad", "with": m{"x": "1"}, "on_error": next})
	}
	view := func(tag string) any {
		switch x.rnd.IntN(5) {
		case 0:
			return nil
		case 1:
			return []any{m{"heading": tag + " {{ world.n }}"}, m{"kv": m{"pairs": m{"s": "{{ world.s }}", "r": "{{ world.r }}"}}}}
		case 2:
			return tag + " f={{ world.f }} x1={{ world.x1 }}"
		}
		return tag + " n={{ world.n }} s={{ world.s }} r={{ world.r }}"
	}
	leaf := func(tag, next string) m {
		// ways out, so a session resting here goes on
		st := m{"on_enter": enter(tag, next), "on": m{"ping": []any{m{"target": "."}}, "go1": []any{m{"target": x.out()}}, "go2": []any{m{"target": x.out()}}}}
		if v := view(tag); v != nil {
			st["view"] = v
		}
		return st
	}
	q1Next, q2Next := "q2", "q1"
	switch x.rnd.IntN(4) {
	case 1:
		q1Next = "q1"
	case 2:
		q2Next = "q2"
	}
	q1, q2 := leaf("Q1", q1Next), leaf("Q2", q2Next)
	if x.chance(25) {
		// the chain passes through a compound's leaf
		q2 = m{"type": "compound", "initial": "a", "states": m{"a": leaf("QA", "q1")}, "on": m{"ping": []any{m{"target": "."}}}}
		if q1Next == "q1" {
			q1["on_enter"] = enter("Q1", "q2")
		}
	}
	switch r := x.rnd.IntN(8); {
	case r == 0:
		q1["terminal"] = true
	case r < 3 && q2["type"] == nil:
		q2["terminal"] = true
	case r < 3:
		q2["states"].(m)["a"].(m)["terminal"] = true
	}
	states["q1"], states["q2"] = q1, q2
	// a hop room: its bind, then an emit_intent hop into the loop, so the
	// cap cuts a chain a post-bind hop started (conformance
	// cap-postbind-view)
	hop := m{"target": x.pick("q1", "q2"), "effects": []any{m{"say": "hop said"}}}
	states["qh"] = m{
		"view": "QH n={{ world.n }} r={{ world.r }}",
		"on_enter": []any{
			m{"invoke": "host.ok", "with": m{"x": "h"}, "bind": m{"r": "v"}},
			// templated, so the post-bind pass fires it after the bind
			m{"emit_intent": x.pick("{{ world.r != '' ? 'cap' : '' }}", "{{ world.r == '' ? '' : 'cap' }}", "cap")},
		},
		"on": m{"cap": []any{hop}, "ping": []any{m{"target": "."}}, "go1": []any{m{"target": x.out()}}},
	}
	// the ways in: arms on cap, and now and then a timeout, an on_complete
	// target and another state's redirect
	ways := []string{x.path(), "s0"}
	for _, p := range []string{"s1", "s2", "s3", "c", "p"} {
		if x.chance(50) && stateAt(states, p) != nil {
			ways = append(ways, p)
		}
	}
	for _, p := range ways {
		st := stateAt(states, p)
		on, _ := st["on"].(m)
		if on == nil {
			on = m{}
			st["on"] = on
		}
		arm := m{"target": x.pick("q1", "q1", "q2", "qh")}
		switch x.rnd.IntN(4) {
		case 0:
			arm["effects"] = []any{m{"say": "said n={{ world.n }}"}}
		case 1:
			arm["effects"] = []any{m{"invoke": "host.ok", "with": m{"x": "1"}, "bind": m{"r": "v"}}}
		case 2:
			arm["effects"] = x.nonFiniteSets()
		}
		on["cap"] = []any{arm}
	}
	if !x.legacy && x.chance(30) {
		if st := stateAt(states, x.path()); st["type"] == nil && st["timeout"] == nil {
			st["timeout"] = m{"after": x.pick("5m", "1h"), "target": "q1"}
		}
	}
	x.reaim(states)
}

// reaim points now and then one on_complete target entry and one
// host.bad redirect of the story's other states at q1.
func (x *rareGen) reaim(states m) {
	var targets, calls []m
	walk := func(list []any) {
		for _, e := range list {
			em, ok := e.(m)
			if !ok {
				continue
			}
			if em["invoke"] == "host.bad" && em["on_error"] != nil {
				calls = append(calls, em)
			}
			for _, c := range asList(em["on_complete"]) {
				if cm, ok := c.(m); ok && cm["target"] != nil {
					targets = append(targets, cm)
				}
			}
		}
	}
	x.eachEffectList(states, walk)
	if len(targets) > 0 && x.chance(30) {
		targets[x.rnd.IntN(len(targets))]["target"] = "q1"
	}
	if len(calls) > 0 && x.chance(30) {
		calls[x.rnd.IntN(len(calls))]["on_error"] = "q1"
	}
}

// capTurns inserts one to three turns sending cap, each with an assertion
// a capped turn is checked by now and then.
func (x *rareGen) capTurns(fx m) {
	turns := asList(fx["turns"])
	for range 1 + x.rnd.IntN(3) {
		turn := m{"intent": m{"name": "cap"}}
		switch x.rnd.IntN(7) {
		case 0, 6:
			turn["expect_error"] = m{"code": x.pick("GUARD_FAILED", "GUARD_FAILED", "NOT_ALLOWED")}
		case 1:
			turn["expect_state"] = x.pick("q1", "q2", "q2.a", "s0", x.path())
		case 2:
			turn["expect_view_matches"] = x.pick("^said", "Q1", "n=[0-9]", "Inf|NaN", "^$")
		case 3:
			turn["expect_world"] = m{x.pick("n", "s", "f"): []any{0, 1, 2, "Q1Q2", 1.5}[x.rnd.IntN(5)]}
		}
		at := x.rnd.IntN(len(turns) + 1)
		turns = slices.Insert(turns, at, any(turn))
	}
	fx["turns"] = turns
}
