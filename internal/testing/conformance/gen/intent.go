package main

// The intent kind (`gen write -kind intent`): stories whose intents carry
// many slots — typed (string, int, number, bool, enum, list), required
// or with a default, enums with values: of mixed spellings — declared
// globally, per state (a state-local declaration wins over the global
// one) and through phases' checkpoint_intents:; intents handled on the
// leaf, by an ancestor compound, by a parallel root or one region, or
// declared and handled nowhere; arms guarded on slots and world with
// guard_hint:; slot values used in set:/increment:/say:, views, host-call
// with: args and binds; default_intent: sinks, transcript: on rooms and
// meta_modes:. Their fixtures (intent_fixture.go) run on both paths
// (legacy and orchestrator, forced each way) and send every YAML value
// type a fixture can send to every declared slot type.
//
// Guards and effect templates never compute on a slot value (no
// arithmetic, no ordering): an expression error there is turn-fatal
// upstream and stops its whole flow run (docs/compat/engine.md "Bare
// names"), so such a story compares nothing.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// writeIntent writes n intent stories, story i from seed+i.
func writeIntent(dir string, n int, seed uint64) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.intentStory(fmt.Sprintf("geni-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// islot is one declared slot as the fixture needs to know it.
type islot struct {
	name     string
	typ      string
	required bool
	def      any // nil: none
	values   []any
}

// iintent is one declared intent and its slots (sorted by name).
type iintent struct {
	name   string
	slots  []islot
	hidden bool // hidden: true, with examples and a priority
}

// istory is what a fixture needs to know of its story.
type istory struct {
	intents  []iintent // global declarations
	local    map[string][]iintent
	leaves   []string     // every resting state path
	top      []string     // top-level rooms
	phases   bool         // ph_executing / ph_awaiting_reply exist
	meta     bool         // meta_modes declared (trigger "meta")
	sinks    []string     // states with default_intent: note
	on       map[string]m // each state's on: by path (intent_sim.go)
	declared []string     // every intent name declared somewhere
}

// slotTypes are the declared slot types drawn; "" leaves type: out.
var slotTypes = []string{"string", "int", "number", "bool", "enum", "list[string]", "money", "date", ""}

// enumValueSets are values: lists, written as YAML reads them.
var enumValueSets = [][]any{
	{"red", "green", "blue"},
	{"red", plain("3"), plain("true")},
	{plain("1"), plain("2.5"), "x"},
	{"Red", "RED", quoted("")},
}

// slotDefault is a default: drawn for a slot of any type (upstream never
// checks it).
func (g *gen) slotDefault(values []any) any {
	if len(values) > 0 && g.chance(70) {
		return values[g.rnd.IntN(len(values))]
	}
	switch g.rnd.IntN(7) {
	case 0:
		return "dflt"
	case 1:
		return plain("7")
	case 2:
		return plain("2.5")
	case 3:
		return plain("false")
	case 4:
		return []any{"a", plain("1")}
	case 5:
		return quoted("")
	}
	return g.form()
}

func (g *gen) drawSlot(name string, allowEnum bool) islot {
	s := islot{name: name, typ: g.pick(slotTypes...)}
	if s.typ == "enum" && !allowEnum {
		s.typ = "string"
	}
	if s.typ == "enum" || (s.typ == "string" && g.chance(15)) {
		s.values = enumValueSets[g.rnd.IntN(len(enumValueSets))]
	}
	switch {
	case g.chance(35):
		s.required = true
		if g.chance(20) {
			s.def = g.slotDefault(s.values) // required with a default
		}
	case g.chance(45):
		s.def = g.slotDefault(s.values)
	}
	return s
}

func (s islot) decl() m {
	d := m{"description": "slot " + s.name}
	if s.typ != "" {
		d["type"] = s.typ
	}
	if s.required {
		d["required"] = true
	}
	if s.def != nil {
		d["default"] = s.def
	}
	if s.values != nil {
		d["values"] = s.values
	}
	return d
}

func (in iintent) decl() m {
	d := m{"description": "the " + in.name + " intent"}
	if in.hidden {
		d["hidden"] = true
		d["priority"] = 3
		d["examples"] = []any{"put it", "put {a}"}
	}
	if len(in.slots) > 0 {
		ss := m{}
		for _, s := range in.slots {
			ss[s.name] = s.decl()
		}
		d["slots"] = ss
	}
	return d
}

// intentStory draws one story and its fixtures.
func (g *gen) intentStory(id string) []agentFile {
	is := &istory{local: map[string][]iintent{}}
	// global intents
	put := iintent{name: "put"}
	for _, sn := range []string{"a", "b", "c"}[:1+g.rnd.IntN(3)] {
		put.slots = append(put.slots, g.drawSlot(sn, true))
	}
	pick := iintent{name: "pick", slots: []islot{{name: "color", typ: "enum", values: enumValueSets[g.rnd.IntN(len(enumValueSets))]}}}
	if g.chance(50) {
		pick.slots[0].required = true
	} else if g.chance(60) {
		pick.slots[0].def = g.slotDefault(pick.slots[0].values)
	}
	if g.chance(40) {
		pick.slots = append(pick.slots, g.drawSlot("d", false))
	}
	note := iintent{name: "note", slots: []islot{{name: "text", typ: "string", required: true}}}
	if g.chance(30) {
		put.hidden = true
	}
	is.intents = []iintent{put, pick, note, {name: "go"}, {name: "back"}, {name: "deep"}, {name: "orphan"}, {name: "ping"}}
	intents := m{}
	for _, in := range is.intents {
		intents[in.name] = in.decl()
		is.declared = append(is.declared, in.name)
	}

	states := m{
		"a": m{}, "b": m{},
		"c": m{"type": "compound", "initial": "c1", "states": m{"c1": m{}, "c2": m{}}},
	}
	is.leaves = []string{"a", "b", "c.c1", "c.c2"}
	is.top = []string{"a", "b", "c"}
	withPar := g.chance(60)
	if withPar {
		states["p"] = m{"type": "parallel", "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{"a1": m{}, "a2": m{}}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{"b1": m{}, "b2": m{}}},
		}}
		is.top = append(is.top, "p")
	}
	// a state-local declaration of put (other slots) on b, and a
	// state-local intent loc on c
	if g.chance(40) {
		lp := iintent{name: "put", slots: []islot{g.drawSlot("a", true), g.drawSlot("z", true)}}
		is.local["b"] = append(is.local["b"], lp)
	}
	if g.chance(50) {
		is.local["c"] = append(is.local["c"], iintent{name: "loc", slots: []islot{g.drawSlot("k", false)}})
		is.declared = append(is.declared, "loc")
	}
	targets := []string{"a", "b", "c", "c.c2", "."}
	if withPar {
		targets = append(targets, "p", "p.ra.a2", "p.rb.b2")
	}
	if g.chance(35) {
		is.phases = true
		targets = append(targets, "ph_executing")
	}
	withKid := g.chance(35)
	if withKid {
		targets = append(targets, "kid")
	}
	arms := func(names ...string) m {
		on := m{}
		for _, in := range names {
			// an arm may emit any intent its own state handles (the
			// loader wants an emitted name on the state or above)
			on[in] = g.intentArms(targets, names...)
		}
		if g.chance(15) {
			// a wildcard takes any other name, declared or not (a
			// declared one's slots are still checked)
			on["*"] = []any{m{"target": ".", "effects": []any{m{"set": m{"t": "{{ slots }}", "s": "star"}}}}}
		}
		return on
	}
	// which intents each state handles: every state some, "deep" only
	// on ancestors, "orphan" nowhere
	handle := func(path string, n int) m {
		pool := []string{"put", "pick", "go", "back", "ping"}
		if len(is.local[path]) > 0 && is.local[path][0].name == "loc" {
			pool = append(pool, "loc")
		}
		var names []string
		for _, x := range pool {
			if g.chance(100 * n / len(pool)) {
				names = append(names, x)
			}
		}
		if !slices.Contains(names, "go") {
			names = append(names, "go") // every state can move on
		}
		return arms(names...)
	}
	sa, sb, sc := states["a"].(m), states["b"].(m), states["c"].(m)
	sa["on"], sb["on"] = handle("a", 4), handle("b", 3)
	sc["on"] = arms("deep", "put")
	if len(is.local["c"]) > 0 {
		sc["on"].(m)["loc"] = g.intentArms(targets)
	}
	c1, c2 := sc["states"].(m)["c1"].(m), sc["states"].(m)["c2"].(m)
	c1["on"], c2["on"] = handle("c.c1", 2), handle("c.c2", 2)
	if withPar {
		p := states["p"].(m)
		// the root's arms leave it: a root arm targeting inside replaces
		// the first region's leaf upstream, corrupting the configuration
		// (story-runtime §3.4 ⚠; not drawn)
		inner := targets
		targets = slices.DeleteFunc(slices.Clone(targets), func(t string) bool { return t == "p" || strings.HasPrefix(t, "p.") })
		p["on"] = arms("deep", "back")
		ra, rb := p["states"].(m)["ra"].(m), p["states"].(m)["rb"].(m)
		// a region's arms move within it or leave: a target in the other
		// region corrupts the configuration upstream (not drawn either)
		outside := targets // the root's: no p, no p.*
		targets = append(slices.Clone(outside), "p.ra.a1", "p.ra.a2")
		ra["states"].(m)["a1"].(m)["on"] = arms("put", "go")
		ra["states"].(m)["a2"].(m)["on"] = arms("go")
		targets = append(slices.Clone(outside), "p.rb.b1", "p.rb.b2")
		rb["states"].(m)["b1"].(m)["on"] = arms("pick", "go")
		rb["states"].(m)["b2"].(m)["on"] = arms("go", "put")
		targets = inner
		is.leaves = append(is.leaves, "p")
	}
	for _, path := range []string{"a", "b"} {
		st := states[path].(m)
		for _, in := range is.local[path] {
			st["intents"] = m{in.name: in.decl()}
		}
		if g.chance(30) {
			// a free-text sink: explicit intents never reach it
			st["default_intent"] = "note"
			st["on"].(m)["note"] = g.intentArms(targets)
			is.sinks = append(is.sinks, path)
		}
		if g.chance(25) {
			st["transcript"] = g.pick("persistent", "transient")
		}
	}
	if in := is.local["c"]; len(in) > 0 {
		sc["intents"] = m{in[0].name: in[0].decl()}
	}
	// views print slots and world
	for _, st := range []m{sa, sb, c1, c2, sc} {
		if g.chance(80) {
			st["view"] = g.intentView()
		}
	}
	if g.chance(30) {
		sa["on_enter"] = []any{m{"set": m{"u": "{{ slots.a }}"}}, m{"say": "enter a={{ slots.a }}"}}
	}
	app := m{
		"app":     m{"id": id, "version": "0.1.0"},
		"hosts":   []any{"host.echo"},
		"world":   intentWorld(),
		"intents": intents,
		"root":    "a",
		"states":  states,
	}
	if is.phases {
		g.intentPhases(app, targets)
		is.leaves = append(is.leaves, "ph_executing", "ph_awaiting_reply")
	}
	if g.chance(25) {
		is.meta = true
		app["meta_modes"] = m{"story": m{
			"trigger": "meta", "label": "meta", "agent": "story-author",
			"return": m{"intent": "back", "message": "back on the path"},
		}}
	}
	var kid m
	if withKid {
		app["imports"] = m{"kid": m{
			"source": "./kid",
			"entry":  "k1",
			"exits":  m{"done": m{"to": g.pick("a", "b", "c"), "set": m{"s": "{{ world.kid__m }}"}}},
		}}
		kid = g.intentChild()
	}
	pruneEmits(states)
	is.on = stateArms(states)
	if kid != nil {
		// the sim loses its way inside the child (intent_sim.go); these
		// are the names a lost fixture may send there
		is.on["kid"] = m{"kid__poke": nil, "kid__quit": nil, "poke": nil, "quit": nil}
	}
	if is.phases {
		is.on["ph_executing"] = m{"go": []any{m{"target": "ph_awaiting_reply"}}, "back": []any{m{"target": "a"}}}
		is.on["ph_awaiting_reply"] = m{"approve": []any{m{"when": "?", "target": "a"}}, "go": []any{m{"target": "ph_executing"}}, "back": []any{m{"target": "a"}}}
	}
	files := []agentFile{{"app.yaml", app}}
	if kid != nil {
		files = append(files, agentFile{"kid/app.yaml", kid})
	}
	for i := range 2 {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.intentFixture(is, i)})
	}
	return files
}

func intentWorld() m {
	return m{
		"n":    m{"type": "int", "default": 0},
		"s":    m{"type": "string", "default": ""},
		"b":    m{"type": "bool", "default": false},
		"t":    m{"type": "any", "default": ""},
		"u":    m{"type": "any", "default": ""},
		"lst":  m{"type": "any", "default": []any{}},
		"hops": m{"type": "int", "default": 0},
	}
}

// intentPhases adds a one-phase graph whose awaiting state takes the
// checkpoint intent approve (declared only through checkpoint_intents:).
func (g *gen) intentPhases(app m, targets []string) {
	approve := iintent{name: "approve", slots: []islot{{name: "why", typ: "string", required: g.chance(60)}}}
	if g.chance(50) {
		approve.slots = append(approve.slots, g.drawSlot("score", false))
	}
	app["checkpoint_intents"] = m{"approve": approve.decl()}
	app["phase_templates"] = m{"leg": m{"states": m{
		"{id}_executing": m{
			"view": "EXEC {{ world.s }} why={{ slots.why }}",
			"on": m{
				"go":   []any{m{"target": "{{ tpl.id }}_awaiting_reply"}},
				"back": []any{m{"target": "a"}},
			},
		},
		"{id}_awaiting_reply": m{
			"view": "AWAIT {{ world.s }} why={{ slots.why }}",
			"on": m{
				"approve": []any{
					m{"when": g.pick("slots.why == 'ok'", "slots.why != nil", "world.n == 0"), "guard_hint": "say ok",
						"target": "a", "effects": []any{m{"set": m{"s": "approved {{ slots.why }}", "t": "{{ slots.score }}"}}}},
					m{"target": ".", "effects": []any{m{"set": m{"s": "why {{ slots.why }}"}}}},
				},
				"go":   []any{m{"target": "{{ tpl.id }}_executing"}},
				"back": []any{m{"target": "a"}},
			},
		},
	}}}
	app["phases"] = m{"template": "leg", "graph": m{"ph": m{}}}
	_ = targets
}

// slotGuards never compute on a slot: equality, nil and membership only.
var slotGuards = []string{
	"slots.a == 'x'", "slots.a == 3", "slots.a == nil", "slots.a != nil", "slots.b == true",
	"slots.color == 'red'", "'a' in slots", "slots.c == ''",
	"world.n == 0", "world.b", "world.s == ''", "slots.text != ''", "slots.k == 2.5",
	"slots.a == slots.b", "slots.z == nil",
}

// intentArms draws one to three arms for intent in: guarded arms with a
// guard_hint, then (usually) a catch-all.
func (g *gen) intentArms(targets []string, emits ...string) []any {
	var list []any
	guarded := 0
	if g.chance(35) {
		guarded = 1 + g.rnd.IntN(2)
	}
	for range guarded {
		arm := m{"when": g.pick(slotGuards...), "target": g.pick(targets...)}
		if g.chance(60) {
			arm["guard_hint"] = g.pick("need x", "pick red", "hint {{ slots.a }}", "")
		}
		if g.chance(60) {
			arm["effects"] = g.slotEffects(emits)
		}
		list = append(list, arm)
	}
	if len(list) == 0 || g.chance(75) {
		arm := m{"target": g.pick(targets...)}
		if g.chance(70) {
			arm["effects"] = g.slotEffects(emits)
		}
		if g.chance(10) {
			arm = m{"default": true, "target": arm["target"], "effects": arm["effects"]}
			if arm["effects"] == nil {
				delete(arm, "effects")
			}
		}
		list = append(list, arm)
	}
	return list
}

// slotRefs are the slot names effects and views read (some declared
// only on other intents, or nowhere).
var slotRefs = []string{"a", "b", "c", "color", "d", "text", "k", "z", "why", "nope"}

// slotEffects is a chain of effects reading slots.
func (g *gen) slotEffects(emits []string) []any {
	var out []any
	for range 1 + g.rnd.IntN(3) {
		x := g.pick(slotRefs...)
		var e m
		if len(emits) > 0 && g.chance(8) {
			// a synthetic intent with slots of its own, validated as a
			// user's; bounded by world.hops, which nothing else writes, so
			// a loop ends before the depth cap (turn-fatal upstream)
			sl := m{"a": "{{ slots." + x + " }}"}
			if g.chance(50) {
				sl["color"] = g.pick("red", "{{ slots.color }}", "RED")
			}
			if g.chance(30) {
				sl = nil
			}
			e = m{"emit_intent": g.pick(emits...), "when": "world.hops < 3"}
			if sl != nil {
				e["slots"] = sl
			}
			out = append(out, m{"increment": m{"hops": 1}}, e)
			continue
		}
		switch g.rnd.IntN(9) {
		case 0:
			e = m{"set": m{"s": "{{ slots." + x + " }}"}}
		case 1:
			// a whole {{ }} keeps the slot value's type
			e = m{"set": m{"t": "{{ slots." + x + " }}"}}
		case 2:
			e = m{"set": m{"u": "<{{ slots." + x + " }}>", "s": "{{ slots." + x + " }}!"}}
		case 3:
			e = m{"set": m{"n": "{{ slots." + x + " }}"}} // coerced for the turn
		case 4:
			e = m{"increment": m{"n": 1}}
		case 5:
			e = m{"say": "said {{ slots." + x + " }} n={{ world.n }}"}
		case 6:
			e = m{"invoke": "host.echo", "with": m{"v": "{{ slots." + x + " }}", "w": "w-{{ slots." + x + " }}", "all": "{{ slots }}"},
				"bind": m{"u": g.pick("v", "got", "echo.v")}}
		case 7:
			e = m{"set": m{"b": "{{ slots." + x + " == nil }}", "lst": m{"k": "{{ slots." + x + " }}"}}}
		default:
			e = m{"set": m{"t": "{{ slots }}"}}
		}
		if g.chance(10) {
			e["when"] = g.pick("slots."+x+" != nil", "world.n == 0")
		}
		out = append(out, e)
	}
	return out
}

func (g *gen) intentView() any {
	switch g.rnd.IntN(4) {
	case 0:
		return "V {{ state.path }} s={{ world.s }} t={{ world.t }} n={{ world.n }}"
	case 1:
		return "V a={{ slots.a }} b={{ slots.b }} c={{ slots.color }} u={{ world.u }}"
	case 2:
		return []any{m{"heading": "H {{ world.s }}"}, m{"kv": m{"pairs": m{"t": "{{ world.t }}", "a": "{{ slots.a }}"}}}}
	default:
		return "V {{ world.lst }} b={{ world.b }} text={{ slots.text }}"
	}
}

// pruneEmits keeps an emit_intent only where upstream can take it: on an
// arm of a leaf that stays (target "."), naming an intent the leaf
// handles with a catch-all arm. An emitted intent no arm takes is
// turn-fatal upstream and stops its whole flow run.
func pruneEmits(states m) {
	eachState("", states, func(_ string, st m) {
		_, compound := st["states"].(m)
		on, _ := st["on"].(m)
		for _, in := range sortedKeys(on) {
			for _, a := range on[in].([]any) {
				arm := a.(m)
				var kept []any
				for _, e := range asList(arm["effects"]) {
					name, emits := e.(m)["emit_intent"].(string)
					if emits && (compound || arm["target"] != "." || !catchAll(on[name])) {
						continue
					}
					kept = append(kept, e)
				}
				if arm["effects"] != nil {
					arm["effects"] = kept
				}
			}
		}
	})
}

// catchAll: an arm list ends in an arm that always wins.
func catchAll(arms any) bool {
	for _, a := range asList(arms) {
		if a.(m)["when"] == nil || a.(m)["default"] == true {
			return true
		}
	}
	return false
}

// intentChild is an imported child whose intents carry slots of their
// own (reached as kid__poke, or by the bare name inside it) and whose
// exit requires a world key its arms set from a slot.
func (g *gen) intentChild() m {
	poke := g.drawSlot("v", false)
	why := islot{name: "why", typ: "string", values: []any{"done", "bored"}}
	if g.chance(40) {
		why.required = true
	}
	return m{
		"app":   m{"id": "kid", "version": "0.1.0"},
		"world": m{"m": m{"type": "any", "default": 1}, "note": m{"type": "string", "default": ""}},
		"intents": m{
			"poke": iintent{name: "poke", slots: []islot{poke}}.decl(),
			"quit": iintent{name: "quit", slots: []islot{why}}.decl(),
		},
		"exits": m{"done": m{"description": "done", "requires": []any{"m"}}},
		"root":  "k1",
		"states": m{
			"k1": m{
				"view": "K1 m={{ world.m }} v={{ slots.v }}",
				"on": m{
					"poke": []any{m{"target": "k2", "effects": []any{m{"set": m{"m": "{{ slots.v }}", "note": "p {{ slots.v }}"}}}}},
					"quit": []any{m{"target": "@exit:done", "effects": []any{m{"set": m{"m": "{{ slots.why }}"}}}}},
				},
			},
			"k2": m{
				"view": "K2 m={{ world.m }} note={{ world.note }}",
				"on": m{
					"poke": []any{
						m{"when": g.pick("slots.v == 3", "slots.v == nil", "world.note == ''"), "guard_hint": "poke 3", "target": "k1"},
						m{"target": ".", "effects": []any{m{"set": m{"note": "again {{ slots.v }}"}}}},
					},
					"quit": []any{m{"target": "@exit:done", "effects": []any{m{"set": m{"m": "q {{ slots.why }}"}}}}},
				},
			},
		},
	}
}
