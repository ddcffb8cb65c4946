package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// slotValues are the values a fixture sends in a slot: every YAML value
// type (quoted and plain numbers, -0, 1e3, huge ints, bools, null,
// lists, maps, unicode, the empty string) and templated strings (the
// orchestrator path renders them against the world before the turn).
var slotValues = []any{
	quoted("3"), plain("3"), plain("3.0"), plain("-0"), plain("-0.0"), plain("1e3"), plain("2.5"),
	plain("0x1F"), plain("99999999999999999999"), plain("true"), plain("false"), plain("null"),
	plain("~"), []any{plain("1"), "x"}, []any{}, m{"k": "v"}, m{}, "ünï ✓", quoted(""), "x", "ok",
	"red", "green", "RED", "{{ world.n }}", "{{ world.s }}-t", "{{ world.nope }}",
}

// slotText is how a sent value reads in a regex of expect_view_matches
// or as a string expect_world: only the simple ones.
func slotText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		if x == "x" || x == "ok" || x == "red" || x == "green" {
			return x, true
		}
	case scalar:
		if x.quoted && x.text == "3" {
			return "3", true
		}
	}
	return "", false
}

// intentNames are the names a fixture turn sends: declared and handled,
// declared and handled nowhere (orphan), handled only by an ancestor
// (deep), undeclared (ghost), the meta mode's trigger (meta), the
// checkpoint intent (approve).
var intentNames = []string{"put", "put", "put", "pick", "pick", "note", "go", "go", "back", "deep", "orphan", "ping", "ghost", "loc", "approve", "meta"}

// slotsOf is the union of the slots declared for name anywhere.
func (is *istory) slotsOf(name string) []islot {
	var out []islot
	add := func(in iintent) {
		if in.name != name {
			return
		}
		for _, s := range in.slots {
			if !slices.ContainsFunc(out, func(o islot) bool { return o.name == s.name }) {
				out = append(out, s)
			}
		}
	}
	for _, in := range is.intents {
		add(in)
	}
	switch name {
	case "poke", "kid__poke":
		out = append(out, islot{name: "v"})
	case "quit", "kid__quit":
		out = append(out, islot{name: "why", values: []any{"done", "bored"}})
	}
	for _, k := range slices.Sorted(maps.Keys(is.local)) {
		for _, in := range is.local[k] {
			add(in)
		}
	}
	if name == "approve" {
		out = append(out, islot{name: "why", typ: "string"}, islot{name: "score"})
	}
	return out
}

// intentFixture draws fixture i of an intent story: on the orchestrator
// or the legacy path (forced either way), sending intents with slots of
// every value type, asserting state, world, errors, views and slots.
func (g *gen) intentFixture(is *istory, i int) m {
	orch := g.chance(50)
	f := m{"test_kind": "flow", "app": "../app.yaml", "use_orchestrator": orch}
	sim := &intentSim{is: is, cur: "a", orch: orch}
	if g.chance(60) || !orch {
		start := is.leaves[g.rnd.IntN(len(is.leaves))]
		sim.enter(start)
		f["initial_state"] = start
	}
	if g.chance(70) {
		// forces the orchestrator path unless use_orchestrator: false
		f["host_handlers"] = m{"host.echo": m{"data": m{"v": g.pick("E", "7"), "got": g.pick("G", "")}}}
	}
	if g.chance(25) {
		f["initial_world"] = m{g.pick("n", "s", "t"): []any{plain("2"), "x"}[g.rnd.IntN(2)]}
	}
	// a clean fixture sends only turns whose outcome the sim knows and
	// asserts only what it predicts, so it passes on both engines; the
	// others also send the unknown and assert at random
	clean := g.chance(65)
	var turns []any
	for range 5 + g.rnd.IntN(7) {
		var name string
		var slots, intent m
		var missing []string
		before := *sim
		code := "?"
		for try := 0; try < 8 && code == "?"; try++ {
			*sim = before
			name, slots, intent, missing = g.intentCall(is, sim)
			code = sim.turn(name, slots, intent["slots"] != nil)
			if !clean {
				break
			}
		}
		if clean && code == "?" {
			*sim = before
			break
		}
		turn := m{"intent": intent}
		switch {
		case code != "" && code != "?" && (clean || g.chance(85)):
			e := m{"code": code}
			if code == "INTENT_NOT_ALLOWED_IN_STATE" && !clean && g.chance(40) {
				e["allowed_contains"] = []any{g.pick("go", "put", "deep")}
			}
			if code == "MISSING_SLOTS" && len(missing) > 0 && g.chance(60) {
				e["missing_slots"] = []any{missing[0]}
			}
			if code == "GUARD_FAILED" && g.chance(40) {
				e["guard_hint"] = "need x" // never checked
			}
			turn["expect_error"] = e
		case clean:
		case code == "?" && g.chance(10):
			turn["expect_error"] = m{"code": g.pick("GUARD_FAILED", "INVALID_SLOT_VALUE", "MISSING_SLOTS", "INTENT_NOT_ALLOWED_IN_STATE")}
		case code == "" && g.chance(4):
			// a wrong expectation: on the legacy path the runner drops
			// the turn's result
			turn["expect_error"] = m{"code": g.pick("GUARD_FAILED", "MISSING_SLOTS")}
			if !orch {
				*sim = before
			}
		}
		if turn["expect_error"] == nil {
			if clean {
				g.cleanAsserts(turn, slots, orch)
			} else {
				g.intentAsserts(is, turn, slots)
			}
			if keys := sortedKeys(slots); !clean && orch && len(keys) > 0 && g.chance(12) {
				// a slot value reaching a host call's with: (v: "{{ slots.x }}"
				// keeps its type, w: "w-{{ slots.x }}" is text)
				v := slots[keys[g.rnd.IntN(len(keys))]]
				args := m{"v": v}
				if g.chance(40) {
					args = m{"w": "w-x"}
				}
				turn["expect_host_calls"] = []any{m{"handler": "host.echo", "args": args}}
			}
			if !sim.lost && g.chance(60) {
				turn["expect_state"] = sim.state()
			}
		}
		if g.chance(8) {
			turn["world_override"] = m{"n": plain(g.pick("2", "0")), "s": "over"}
		}
		turns = append(turns, turn)
	}
	if len(turns) == 0 {
		// no turn the sim could predict: one it cannot
		_, _, intent, _ := g.intentCall(is, sim)
		turns = append(turns, m{"intent": intent})
	}
	f["turns"] = turns
	_ = i
	return f
}

// intentAsserts adds some of expect_state, expect_world, expect_slots and
// expect_view_matches to a turn that expects no error.
func (g *gen) intentAsserts(is *istory, turn m, slots m) {
	if g.chance(3) {
		turn["expect_state"] = is.leaves[g.rnd.IntN(len(is.leaves))]
	}
	keys := sortedKeys(slots)
	if len(keys) > 0 && g.chance(30) {
		k := keys[g.rnd.IntN(len(keys))]
		if _, templated := slots[k].(string); !templated || g.chance(30) {
			turn["expect_slots"] = m{k: slots[k]}
		}
	}
	if g.chance(5) {
		w := m{}
		switch g.rnd.IntN(3) {
		case 0:
			if len(keys) > 0 {
				w["t"] = slots[keys[g.rnd.IntN(len(keys))]]
			} else {
				w["t"] = ""
			}
		case 1:
			w["s"] = g.pick("", "x", "ok!", "red")
		default:
			w["n"] = plain(g.pick("0", "1", "3"))
		}
		turn["expect_world"] = w
	}
	if g.chance(5) {
		re := g.pick("^V ", "s=x", "a=\\S", "H ")
		for _, k := range keys {
			if txt, ok := slotText(slots[k]); ok && g.chance(50) {
				re = fmt.Sprintf("%s=%s", k, txt)
			}
		}
		turn["expect_view_matches"] = re
	}
}

// intentCall draws one intent call: mostly a name the state handles (any
// declared or undeclared name otherwise), each of its slots sent or left
// out, a value from its values: or of any type, sometimes an unknown
// slot. missing names the required slots with no default left out.
func (g *gen) intentCall(is *istory, sim *intentSim) (name string, slots, intent m, missing []string) {
	name = g.pick(intentNames...)
	if names := sim.names(); len(names) > 0 && g.chance(88) {
		name = g.pick(names...)
	}
	slots = m{}
	for _, s := range is.slotsOf(name) {
		if !g.chance(70) {
			if s.required && s.def == nil {
				missing = append(missing, s.name)
			}
			continue
		}
		if len(s.values) > 0 && g.chance(60) {
			slots[s.name] = s.values[g.rnd.IntN(len(s.values))]
		} else {
			slots[s.name] = slotValues[g.rnd.IntN(len(slotValues))]
		}
	}
	if g.chance(15) {
		slots[g.pick("zz", "a", "color")] = slotValues[g.rnd.IntN(len(slotValues))]
	}
	intent = m{"name": name}
	if len(slots) > 0 || g.chance(70) {
		intent["slots"] = slots
	}
	return name, slots, intent, missing
}

// cleanAsserts asserts a sent slot as sent (a template only where the
// legacy path leaves it as written).
func (g *gen) cleanAsserts(turn, slots m, orch bool) {
	keys := sortedKeys(slots)
	if len(keys) == 0 || !g.chance(30) {
		return
	}
	k := keys[g.rnd.IntN(len(keys))]
	if s, ok := slots[k].(string); ok && orch && strings.Contains(s, "{{") {
		return
	}
	turn["expect_slots"] = m{k: slots[k]}
}
