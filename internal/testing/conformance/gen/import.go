package main

// The import kind (`gen write -kind import`): parents importing one or
// two children, a child importing a grand-child, drawing every key of
// an import: source, entry, exits {to, set} to the importer's leaves,
// compounds, parallel regions, stays and chained @exits; world_in of
// literals and templates of the importer's world; hosts inherit and
// declared; intents export and import with the child's
// exports.intents; overrides of states and intents; host_bindings of a
// child interface. Children (import_story.go) hold compound and
// parallel states, emits, timeouts, on_enter effects, host calls with
// binds and on_error redirects, exits with requires, and views of their
// own world. Fixtures drive aliased intents (<alias>__<intent>), bare
// child intents, lifted ones, and assert states on aliased paths, the
// prefixed world keys and the views.
//
// About one story in five carries one load-time mistake of
// story-format.md §9.2 (mistakes below): both engines must refuse it,
// with the same meaning. The kind of mistake is written to the story's
// mistake.txt; compare `kitsoki validate` on both by hand (a story
// neither engine loads has no report for gen diff).

import (
	"fmt"
	"path/filepath"
	"slices"
)

// writeImport writes n import stories, story i from seed+i.
func writeImport(dir string, n int, seed uint64) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.importStory(fmt.Sprintf("geni-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// impMistakes are the load-time mistakes drawn (story-format.md §9.2).
var impMistakes = []string{
	"alias", "no-source", "no-entry", "unknown-exit", "requires", "unmapped-exit",
	"alias-collides", "world-in", "hosts-declared", "hosts-value", "host-bindings",
	"export-undefined", "import-not-exported", "import-undefined", "import-collides",
	"override-state", "override-intent", "override-prompt", "cycle", "missing-source",
	"reach-in", "empty-def",
}

var parentIntents = []string{"go0", "go1", "go2", "enter", "back", "put"}

// importStory draws a parent, its children and grand-child, and two
// fixtures.
func (g *gen) importStory(id string) []agentFile {
	mistake := ""
	if g.chance(20) {
		mistake = impMistakes[g.rnd.IntN(len(impMistakes))]
	}
	kid := &impChild{alias: "kid", prefix: "kid__", path: "kid"}
	kids := []*impChild{kid}
	var sub, gk *impChild
	if g.chance(40) {
		sub = &impChild{alias: "sub", prefix: "sub__", path: "sub"}
		kids = append(kids, sub)
	}
	if g.chance(35) {
		gk = &impChild{alias: "gk", prefix: "kid__gk__", path: "kid.gk", parent: kid}
	}
	// the parent's own states
	targets := []string{"home", "mid", "pc", "pc.pc2", "."}
	par := g.chance(50)
	if par {
		targets = append(targets, "pp", "pp.ra.a2")
	}
	pexit := g.chance(25)
	if pexit {
		targets = append(targets, "@exit:out")
	}
	var files []agentFile
	// the grand-child first: the child's import of it names kid's states
	if gk != nil {
		gapp := g.impChildStory(gk, nil, nil)
		// (a lifted poke would collide with kid's own: a mistake drawn
		// below, not here)
		gdef := g.impDef(gk, "../gk", []string{"k1", "k2", "kc", ".", "@exit:done"}, childIntents, gapp["host_interfaces"] != nil, false)
		// a grand-child's exit set writes kid's keys; @exit:done chains
		// to kid's own done exit
		kid.states = nil
		kapp := g.impChildStory(kid, gk, gdef)
		kid.states = append(kid.states, gk.states...)
		files = append(files, agentFile{"gk/app.yaml", gapp}, agentFile{"kid/app.yaml", kapp})
		kids = append(kids, gk)
		g.impKidDefs(kid, kapp)
	} else {
		kapp := g.impChildStory(kid, nil, nil)
		files = append(files, agentFile{"kid/app.yaml", kapp})
		g.impKidDefs(kid, kapp)
	}
	if sub != nil {
		sapp := g.impChildStory(sub, nil, nil)
		files = append(files, agentFile{"sub/app.yaml", sapp})
		g.impKidDefs(sub, sapp)
	}
	imports := m{}
	for _, c := range kids {
		if c.parent != nil {
			continue
		}
		src := g.pick("./"+c.alias, "./"+c.alias, c.alias+"/app.yaml", "./"+c.alias+"/")
		imports[c.alias] = g.impDef(c, src, targets, parentIntents, c.iface, c.exported && c == kid)
	}
	enterTargets := []string{"kid", "kid"}
	if e, ok := imports["kid"].(m)["entry"].(string); ok {
		enterTargets = append(enterTargets, "kid."+e)
	} else {
		enterTargets = append(enterTargets, "kid.k1")
	}
	if sub != nil {
		enterTargets = append(enterTargets, "sub")
	}
	lifted := false
	if in, ok := imports["kid"].(m)["intents"].(m); ok && in["import"] != nil {
		lifted = true
	}
	states := m{
		"home": g.impParentState("H", enterTargets, targets, lifted),
		"mid":  g.impParentState("M", enterTargets, targets, lifted),
		"pc": m{"type": "compound", "initial": "pc1", "view": "PC n={{ world.n }}",
			"on": m{"back": []any{m{"target": "home"}}},
			"states": m{
				"pc1": g.impParentState("PC1", enterTargets, targets, false),
				"pc2": g.impParentState("PC2", enterTargets, targets, false),
			}},
	}
	if par {
		states["pp"] = m{"type": "parallel", "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{
				"a1": m{"view": "PA1 {{ world.msg }}", "on": m{"go0": []any{m{"target": g.pick("pp.ra.a2", "../a2"), "emit": []any{"go1"}}}}},
				"a2": m{"view": "PA2 {{ world.kid__t }}", "on": m{"enter": []any{m{"target": enterTargets[0]}}}},
			}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{
				"b1": m{"view": "PB1", "on": m{"go1": []any{m{"target": "../b2", "effects": []any{m{"increment": m{"n": 1}}}}}}},
				"b2": m{"view": "PB2 n={{ world.n }}", "on": m{"back": []any{m{"target": "home"}}}},
			}},
		}}
	}
	pintents := m{}
	for _, in := range parentIntents {
		pintents[in] = m{"description": "the " + in + " intent"}
	}
	pintents["put"].(m)["slots"] = m{"v": m{"type": "string"}}
	app := m{
		"app":   m{"id": id, "version": "0.1.0"},
		"hosts": []any{"host.ok", "host.bad", "host.ok2", "host.job"},
		"world": m{
			"n":    m{"type": "int", "default": 0},
			"s":    m{"type": "string", "default": g.pick("", "s0")},
			"msg":  m{"type": "string", "default": ""},
			"flag": m{"type": "bool", "default": false},
		},
		"intents": pintents,
		"root":    g.pick("home", "home", "home", "home", "home", "kid"),
		"imports": imports,
		"states":  states,
	}
	if pexit {
		app["exits"] = m{"out": m{"description": "out"}}
	}
	if g.chance(30) {
		app["world"].(m)["last_error"] = m{"type": "string", "default": ""}
	}
	// the importer's prompt for overrides.prompts (the parent's, and
	// kid's for its grand-child)
	files = append(files, agentFile{"pp.md", "the parent's prompt\n"}, agentFile{"kid/pp.md", "kid's prompt\n"})
	for _, c := range kids {
		files = append(files, agentFile{c.alias + "/prompts/p.md", "the " + c.alias + " prompt\n"})
	}
	if mistake != "" {
		files = append(files, agentFile{"mistake.txt", mistake + "\n"})
		files = g.impMistake(mistake, app, files)
	}
	files = append(files, agentFile{"app.yaml", app})
	for i := range 2 {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.impFixture(kids, states, lifted, app, i == 0)})
	}
	return files
}

// impKidDefs notes what a child's app declares that its import may
// name: an interface to bind, an exported intent.
func (g *gen) impKidDefs(c *impChild, app m) {
	c.iface = app["host_interfaces"] != nil
	c.exported = app["exports"] != nil
}

// impParentState is a leaf of the parent: a view reading its world and
// the children's prefixed keys, on_enter effects, arms into the
// children and to its own states.
func (g *gen) impParentState(tag string, enter, targets []string, lifted bool) m {
	st := m{
		"view": g.pick(
			tag+" n={{ world.n }} s={{ world.s }} msg={{ world.msg }}",
			tag+" km={{ world.kid__m }} kt={{ world.kid__t }} f={{ world.flag }}",
			tag+" {{ state.path }} sub={{ world.sub__m }} gk={{ world.kid__gk__t }}"),
		"on": m{
			"enter": []any{m{"target": enter[g.rnd.IntN(len(enter))], "effects": []any{m{"set": m{"s": g.pick("e{{ world.n }}", "in")}}}}},
			"go0":   []any{m{"target": targets[g.rnd.IntN(len(targets))]}},
			"go1":   []any{m{"target": g.pick("pc", "mid", "home")}},
			"back":  []any{m{"target": "home", "effects": []any{m{"increment": m{"n": 1}}}}},
			// world_in may read the slots of the arm entering the child
			"put": []any{m{"target": enter[g.rnd.IntN(len(enter))], "effects": []any{m{"set": m{"s": "{{ slots.v }}"}}}}},
		},
	}
	if g.chance(50) {
		st["on"].(m)["go2"] = []any{m{"target": enter[g.rnd.IntN(len(enter))]}}
	}
	if lifted {
		st["on"].(m)["poke"] = []any{m{"target": "kid", "effects": []any{m{"set": m{"msg": "lifted"}}}}}
	}
	if g.chance(40) {
		st["on_enter"] = []any{g.pickM(
			m{"increment": m{"n": 1}},
			m{"set": m{"msg": "{{ world.kid__m }}"}},
			m{"invoke": "host.ok", "with": m{"x": "{{ world.n }}"}, "bind": m{"msg": "v"}},
		)}
	}
	return st
}

// pickM is one of xs.
func (g *gen) pickM(xs ...m) m { return xs[g.rnd.IntN(len(xs))] }

// impMistake puts one load-time mistake into the story.
func (g *gen) impMistake(kind string, app m, files []agentFile) []agentFile {
	imps := app["imports"].(m)
	kid := imps["kid"].(m)
	kidApp := func() m {
		for _, f := range files {
			if f.name == "kid/app.yaml" {
				return f.body.(m)
			}
		}
		return nil
	}
	switch kind {
	case "alias":
		imps["Kid"] = kid
		delete(imps, "kid")
	case "no-source":
		delete(kid, "source")
	case "no-entry":
		delete(kid, "entry")
		delete(kidApp(), "root")
	case "unknown-exit":
		kid["exits"].(m)["nope"] = m{"to": "home"}
	case "requires":
		ex := kidApp()["exits"].(m)["done"].(m)
		ex["requires"] = []any{"flag"}
	case "unmapped-exit":
		delete(kid["exits"].(m), "bail")
	case "alias-collides":
		app["states"].(m)["kid"] = m{"view": "clash"}
	case "world-in":
		kid["world_in"] = m{"nope": "1"}
	case "hosts-declared":
		kid["hosts"] = "declared"
		app["hosts"] = []any{"host.ok"}
	case "hosts-value":
		kid["hosts"] = g.pick("share", "Inherit")
	case "host-bindings":
		kid["host_bindings"] = m{"nope": "host.ok"}
	case "export-undefined":
		kid["intents"] = m{"export": []any{"nope"}}
	case "import-not-exported":
		delete(kidApp(), "exports")
		kid["intents"] = m{"import": []any{"poke"}}
	case "import-undefined":
		kidApp()["exports"] = m{"intents": []any{"poke", "zap"}}
		kid["intents"] = m{"import": []any{"zap"}}
	case "import-collides":
		kidApp()["exports"] = m{"intents": []any{"poke"}}
		kid["intents"] = m{"import": []any{"poke"}}
		app["intents"].(m)["poke"] = m{"description": "parent poke"}
	case "override-state":
		kid["overrides"] = m{"states": m{"nope": m{"view": "x"}}}
	case "override-intent":
		kid["overrides"] = m{"intents": m{"nope": m{"description": "x"}}}
	case "override-prompt":
		kid["overrides"] = m{"prompts": m{"prompts/p.md": "./missing.md"}}
	case "cycle":
		kidApp()["imports"] = m{"back": m{"source": "..", "entry": "home"}}
	case "missing-source":
		kid["source"] = "./nowhere"
	case "reach-in":
		app["states"].(m)["home"].(m)["on"].(m)["go1"] = []any{m{"target": "kid.kc.kc2"}}
	case "empty-def":
		imps["zz"] = nil
	}
	return files
}

// impFixture draws one fixture: aliased, bare and lifted intents, the
// parent's, expectations on aliased states, prefixed world keys and
// views.
//
// careful (the first fixture) sends only intents the guessed state takes,
// fills required slots and asserts only the guessed state, so that most
// such fixtures pass upstream; the second also sends other intents and
// asserts world values and views at random.
func (g *gen) impFixture(kids []*impChild, states m, lifted bool, app m, careful bool) m {
	f := m{
		"test_kind":        "flow",
		"app":              "../app.yaml",
		"use_orchestrator": true,
		"host_handlers": m{
			"host.ok":  m{"data": m{"v": g.pick("R", "7", "")}},
			"host.ok2": m{"data": m{"v": "B2"}},
			"host.bad": m{"error": "boom"},
			// at most 1s: every advance_clock (6m) covers it (a partial
			// advance aborts the run upstream)
			"host.job": m{"data": m{"v": "J"}, "delay": g.pick("10ms", "1s")},
		},
	}
	sim := newImpSim(app["states"].(m), kids)
	sim.cur = sim.enter(app["root"].(string))
	if g.chance(70) {
		f["initial_state"] = "home"
	} else if g.chance(30) {
		// seeded inside the child: its wrapper's on_enter does not run
		f["initial_state"] = kids[0].states[g.rnd.IntN(len(kids[0].states))]
		sim.cur = []string{f["initial_state"].(string)}
	}
	if g.chance(30) {
		f["initial_world"] = g.pickM(m{"n": 2}, m{"s": "w"}, m{"kid__m": 7})
	}
	var names []string
	for _, c := range kids {
		for _, in := range c.intents {
			names = append(names, c.prefix+in)
		}
		names = append(names, c.prefix+"go0", c.prefix+"loc", "loc")
	}
	names = append(names, "poke", "quit", "hop")
	if lifted {
		names = append(names, "poke")
	}
	paths := sortedKeys(states)
	for _, c := range kids {
		paths = append(paths, c.states...)
	}
	var turns []any
	for range 5 + g.rnd.IntN(6) {
		if g.chance(8) {
			turns = append(turns, m{"advance_clock": "6m"})
			continue
		}
		var in string
		switch h := sim.handled(); {
		case len(h) > 0 && (careful || g.chance(90)):
			in = h[g.rnd.IntN(len(h))]
		case g.chance(45):
			in = parentIntents[g.rnd.IntN(len(parentIntents))]
		default:
			in = names[g.rnd.IntN(len(names))]
		}
		sim.take(in)
		slots := m{}
		if in == "put" && g.chance(80) {
			slots["v"] = g.pick("pv", "")
		}
		if in == "fin" || slices.Contains([]string{"kid__fin", "sub__fin", "kid__gk__fin"}, in) {
			if careful || g.chance(80) {
				slots["url"] = g.pick("u1", "https://x/1")
			}
		}
		t := m{"intent": m{"name": in, "slots": slots}}
		if careful {
			if len(sim.cur) == 1 && g.chance(30) {
				t["expect_state"] = sim.cur[0]
			}
			turns = append(turns, t)
			continue
		}
		if g.chance(30) {
			t["expect_state"] = paths[g.rnd.IntN(len(paths))]
			if len(sim.cur) == 1 && g.chance(80) {
				t["expect_state"] = sim.cur[0]
			}
		}
		if g.chance(12) {
			k := g.pick("msg", "n", "kid__m", "kid__t", "sub__m", "kid__gk__t", "kid__flag")
			t["expect_world"] = m{k: g.pickM(m{"v": 2}, m{"v": "t0"}, m{"v": ""}, m{"v": 1})["v"]}
		}
		if g.chance(10) {
			t["expect_view_matches"] = g.pick("K1", "K2", "H n=", "KC", "m=2", "OVR")
		}
		turns = append(turns, t)
	}
	f["turns"] = turns
	return f
}
