package main

import (
	"fmt"
	"strings"
)

// impChild is one imported story as the parent's fixture sees it: its
// alias path (kid, kid__gk for the world, kid.gk for states), the state
// paths below it and the intents it answers to.
type impChild struct {
	alias   string   // the import alias
	prefix  string   // world and intent prefix: kid__ or kid__gk__
	path    string   // state path of its wrapper: kid or kid.gk
	states  []string // its state paths, absolute
	intents []string // its own intents, bare
	exits   []string // the exits it declares
	parent  *impChild
	// iface: it declares host interface rep; exported: it lists poke
	// in exports.intents
	iface, exported bool
	// jobExit: a job's on_complete targets @exit:bail, which its importer
	// must map to a state (upstream refuses "." or a top exit there)
	jobExit bool
	// app is its app.yaml, def its importer's definition of it (the
	// fixture's walk reads both)
	app, def m
}

// childIntents are the intents every child declares; fin has a string
// slot url.
var childIntents = []string{"poke", "quit", "fin", "bail", "hop"}

// impChildStory draws a child story imported under alias (nested below
// up, nil for the top story's imports). It returns the app.yaml and its
// fixture view; grand adds a grand-child import of its own (gk.yaml
// written by the caller under dir gk).
func (g *gen) impChildStory(c *impChild, grand *impChild, grandDef m) m {
	world := m{
		// a non-zero int default replays differently on purpose
		// (docs/compat/engine.md, conformance values-increment-default)
		"m":    m{"type": "int", "default": 0},
		"t":    m{"type": "string", "default": g.pick("", "t0")},
		"flag": m{"type": "bool", "default": false},
		"v":    m{"type": "any", "default": g.form()},
	}
	intents := m{}
	for _, in := range childIntents {
		d := m{"description": "the " + in + " intent"}
		if in == "fin" {
			d["slots"] = m{"url": m{"type": "string", "required": g.chance(50)}}
		}
		intents[in] = d
	}
	c.intents = childIntents
	exits := m{"done": m{"description": "done"}, "bail": m{"description": "bail"}}
	requires := g.chance(30)
	if requires {
		exits["done"].(m)["requires"] = []any{"t"}
	}
	// doneSet: what an arm to @exit:done sets (t when done requires it)
	doneSet := func(effects []any) []any {
		if requires {
			return append(effects, m{"set": m{"t": "req"}})
		}
		return effects
	}
	c.exits = []string{"done", "bail"}
	local := []string{"k1", "k2", "kc", "kc.kc1", "kc.kc2"}
	states := m{
		"k1": m{
			"view":     g.pick("K1 m={{ world.m }} t={{ world.t }}", "K1 {{ state.path }} v={{ world.v }}"),
			"on_enter": g.impEffects(1, false),
			"on": m{
				"poke": []any{m{"target": "k2"}},
				"quit": []any{m{"target": "@exit:done", "effects": []any{m{"set": m{"t": "q{{ world.m }}"}}}}},
				"fin":  []any{m{"target": "@exit:done", "effects": []any{m{"set": m{"t": "{{ slots.url }}"}}}}},
				"bail": []any{m{"target": "@exit:bail"}},
				"hop":  []any{m{"target": g.pick("kc", "k2", ".")}},
			},
		},
		"k2": m{
			"view": []any{m{"heading": "K2 {{ world.m }}"}, m{"kv": m{"pairs": m{"t": "{{ world.t }}", "flag": "{{ world.flag }}"}}}},
			"on": m{
				"poke": []any{m{"when": "world.m > 3", "target": "k1", "effects": []any{m{"increment": m{"m": 2}}}}, m{"target": "k1"}},
				"quit": []any{m{"target": "@exit:bail"}},
				"hop":  []any{m{"target": g.pick("kc", "k1", "."), "effects": g.impEffects(2, true)}},
			},
		},
		"kc": m{
			"type": "compound", "initial": "kc1",
			"view": "KC m={{ world.m }}",
			"on":   m{"bail": []any{m{"target": "@exit:bail"}}},
			"states": m{
				"kc1": m{"view": "KC1 t={{ world.t }}", "on": m{"poke": []any{m{"target": g.pick("../kc2", "../../k1", "k1")}}}},
				"kc2": m{"view": "KC2 {{ world.flag }}", "on": m{
					"poke": []any{m{"target": "../kc1"}},
					"quit": []any{m{"target": "@exit:done", "effects": doneSet(g.impEffects(1, true))}},
				}},
			},
		},
	}
	if g.chance(25) {
		// a bare child intent emitted where it is handled (an emit no
		// arm takes is turn-fatal upstream), resolved through the
		// folded state's aliases at run time
		k1 := states["k1"].(m)
		k1["on_enter"] = append(asList(k1["on_enter"]), m{"emit_intent": g.pick("hop", "{{ world.m > 0 ? 'hop' : '' }}")})
	}
	if g.chance(40) {
		// a state-local intent (not renamed by the fold: conformance
		// import-local-intent)
		states["k2"].(m)["intents"] = m{"loc": m{"description": "local to k2"}}
		states["k2"].(m)["on"].(m)["loc"] = []any{m{"target": "k1", "effects": []any{m{"set": m{"t": "loc"}}}}}
	}
	if g.chance(15) {
		// a wildcard arm: every intent is allowed inside kc
		states["kc"].(m)["on"].(m)["*"] = []any{m{"target": "k1", "effects": []any{m{"say": "wild"}}}}
	}
	if g.chance(50) {
		// a parent intent the importer may export (kid__go0)
		states["k1"].(m)["on"].(m)["go0"] = []any{m{"target": "k2", "effects": []any{m{"set": m{"t": "g0"}}}}}
	}
	if g.chance(50) {
		states["k2"].(m)["timeout"] = m{"after": "5m", "target": "k1"}
	}
	if g.chance(40) {
		states["k2"].(m)["on_enter"] = g.impEffects(2, false)
	}
	if g.chance(30) {
		// a background job whose on_complete lands on a bare sibling
		// (rewritten ../k1, resolved against the job's origin); k1
		// submits no job, so no job starts inside the drain
		to := g.pick("k1", "kc", "@exit:bail")
		c.jobExit = to == "@exit:bail"
		job := m{"invoke": "host.job", "with": m{"x": "{{ world.m }}"}, "background": true,
			"on_complete": []any{m{"set": m{"t": "{{ last_job_status }}"}}, m{"target": to}}}
		states["k2"].(m)["on_enter"] = append(asList(states["k2"].(m)["on_enter"]), job)
	}
	if g.chance(50) {
		states["kp"] = m{
			"type": "parallel",
			"view": "KP m={{ world.m }}",
			"states": m{
				"ra": m{"type": "compound", "initial": "a1", "states": m{
					"a1": m{"view": "A1", "on": m{"poke": []any{m{"target": "../a2", "emit": []any{"hop"}}}}},
					"a2": m{"view": "A2", "on": m{"quit": []any{m{"target": "@exit:done", "effects": doneSet(nil)}}}},
				}},
				"rb": m{"type": "compound", "initial": "b1", "states": m{
					"b1": m{"view": "B1", "on": m{"hop": []any{m{"target": "../b2", "effects": []any{m{"increment": m{"m": 1}}}}}}},
					"b2": m{"view": "B2", "on": m{"bail": []any{m{"target": "@exit:bail"}}}},
				}},
			},
		}
		local = append(local, "kp", "kp.ra.a1", "kp.ra.a2", "kp.rb.b1", "kp.rb.b2")
		states["k1"].(m)["on"].(m)["hop"] = []any{m{"target": g.pick("kp", "kp", "kc")}}
	}
	hosts := []any{"host.ok", "host.bad", "host.job"}
	app := m{
		"app":     m{"id": "child-" + c.alias, "version": "0.1.0"},
		"hosts":   hosts,
		"world":   world,
		"intents": intents,
		"exits":   exits,
		"root":    "k1",
		"states":  states,
	}
	if g.chance(40) {
		app["exports"] = m{"intents": []any{"poke"}}
	}
	if g.chance(40) {
		app["host_interfaces"] = m{"rep": m{
			"description": "reports",
			"operations":  m{"say": m{"input": m{"x": "string"}, "output": m{"v": "string"}}},
			"default":     "host.ok",
		}}
		states["k2"].(m)["on"].(m)["fin"] = []any{m{"target": "k1", "effects": []any{
			m{"invoke": "iface.rep.say", "with": m{"x": "{{ world.t }}"}, "bind": m{"t": "v"}}}}}
	}
	if grand != nil {
		app["imports"] = m{grand.alias: grandDef}
		states["k2"].(m)["on"].(m)["bail"] = []any{m{"target": grand.alias}}
		local = append(local, grand.alias)
	}
	for _, s := range local {
		c.states = append(c.states, c.path+"."+s)
	}
	c.app = app
	return app
}

// impEffects draws up to n child-scope effects (sets, increments, says,
// host calls with binds and on_error redirects, emits).
// arc: on a transition, whose dispatch state is its destination, where
// a child's bare on_error (../<name>) may name nothing: ours writes a
// harness.error there, upstream not (docs/compat/engine.md), so arcs
// redirect with "." only.
func (g *gen) impEffects(n int, arc bool) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		switch g.rnd.IntN(11) {
		case 9, 10:
			out = append(out, m{"say": "said t={{ world.t }} v={{ world.v }}"})
		case 8:
			// a prompt path the fold makes absolute (or the importer's
			// overrides.prompts swaps)
			out = append(out, m{"invoke": "host.ok", "with": m{"prompt": "prompts/p.md", "x": "{{ world.t }}"}, "bind": m{"t": "v"}})
		case 0:
			out = append(out, m{"increment": m{"m": 1}})
		case 1:
			out = append(out, m{"set": m{"t": g.pick("x{{ world.m }}", "lit", "{{ world.v }}")}})
		case 2:
			out = append(out, m{"set": m{"flag": "{{ world.m > 2 }}"}})
		case 3:
			out = append(out, m{"say": "said {{ world.m }}"})
		case 4:
			out = append(out, m{"invoke": "host.ok", "with": m{"x": "{{ world.m }}"}, "bind": m{"t": "v"}})
		case 5:
			oe := g.pick("k1", "kc", ".")
			if arc {
				oe = "."
			}
			out = append(out, m{"invoke": "host.bad", "with": m{"x": "1"}, "on_error": oe})
		case 6:
			out = append(out, m{"set": m{"v": g.form()}})
		default:
			out = append(out, m{"set": m{"m": "{{ world.m + 1 }}"}})
		}
	}
	return out
}

// impDef draws the parent's import definition of child c: source,
// entry, exits mapped to the importer's states (to, set), world_in,
// hosts, intents, overrides, host_bindings. targets are the importer's
// state paths an exit may go to; vars its world keys; pints its intents.
func (g *gen) impDef(c *impChild, source string, targets, pints []string, hasIface bool, exported bool) m {
	d := m{"source": source}
	c.def = d
	if g.chance(80) {
		d["entry"] = g.pick("k1", "k1", "k2", "kc")
	}
	exits := m{}
	for _, x := range c.exits {
		e := m{"to": targets[g.rnd.IntN(len(targets))]}
		if to := e["to"].(string); x == "bail" && c.jobExit && (to == "." || strings.HasPrefix(to, "@exit:")) {
			e["to"] = targets[0]
		}
		if g.chance(60) {
			e["set"] = g.impExitSet(c, c.parent == nil)
		}
		if e["to"] == "@exit:done" {
			// chained to the importer's own done, which may require t
			set, _ := e["set"].(m)
			if set == nil {
				set = m{}
			}
			set["t"] = fmt.Sprintf("{{ world.%s__t }}", c.alias)
			e["set"] = set
		}
		exits[x] = e
	}
	d["exits"] = exits
	if g.chance(60) {
		// the importer's keys: s and n at the top, t and m in a child
		sv, nv := "s", "n"
		if c.parent != nil {
			sv, nv = "t", "m"
		}
		wi := m{}
		for range 1 + g.rnd.IntN(2) {
			switch g.rnd.IntN(4) {
			case 0:
				wi["t"] = g.pick("{{ world."+sv+" }}", "in-{{ world."+nv+" }}", "lit", "{{ slots.v }}")
			case 1:
				// a literal is text (world_in values are), which an int
				// guard cannot compare: turn-fatal upstream
				wi["m"] = g.pick("{{ world."+nv+" }}", "{{ world."+nv+" + 10 }}")
			case 2:
				wi["v"] = g.form()
			default:
				wi["flag"] = g.pick("true", "{{ world.n > 0 }}")
			}
		}
		d["world_in"] = wi
	}
	if g.chance(30) {
		d["hosts"] = g.pick("inherit", "declared")
	}
	if g.chance(30) {
		d["intents"] = m{"export": []any{pints[g.rnd.IntN(len(pints))]}}
	}
	if exported && g.chance(50) {
		in, _ := d["intents"].(m)
		if in == nil {
			in = m{}
		}
		in["import"] = []any{"poke"}
		d["intents"] = in
	}
	if g.chance(25) {
		ov := m{}
		if g.chance(70) {
			ov["states"] = m{"k2": m{
				"view": "K2-OVR m={{ world.m }} t={{ world.t }}",
				"on": m{
					"poke": []any{m{"target": "k1", "effects": []any{m{"set": m{"t": "ovr"}}}}},
					"quit": []any{m{"target": "@exit:done", "effects": []any{m{"set": m{"t": "ovq"}}}}},
				},
			}}
		}
		if g.chance(50) {
			ov["intents"] = m{"hop": m{"description": "hop, overridden"}}
		}
		if g.chance(40) {
			ov["prompts"] = m{"prompts/p.md": g.pick("./pp.md", "pp.md")}
		}
		d["overrides"] = ov
	}
	if hasIface && g.chance(60) {
		d["host_bindings"] = m{"rep": g.pick("host.ok2", "host.ok")}
	}
	return d
}

// impExitSet is an exit's set: (importer scope, reading the child's
// keys under its alias). top: the importer is the top story (keys msg,
// n, flag), else a child (t, m, flag).
func (g *gen) impExitSet(c *impChild, top bool) m {
	msg, n := "msg", "n"
	if !top {
		msg, n = "t", "m"
	}
	switch g.rnd.IntN(7) {
	case 4:
		// the child's transition's slots (kid__fin's url)
		return m{msg: "{{ slots.url }}"}
	case 5:
		return m{n: 5, msg: 7}
	case 6:
		return m{"flag": fmt.Sprintf("{{ world.%s__m > 0 }}", c.alias)}
	case 0:
		return m{msg: fmt.Sprintf("{{ world.%s__t }}", c.alias)}
	case 1:
		return m{n: fmt.Sprintf("{{ world.%s__m }}", c.alias)}
	case 2:
		return m{msg: "out", "flag": true}
	default:
		return m{msg: fmt.Sprintf("{{ world.%s__m }}-{{ world.%s }}", c.alias, n)}
	}
}
