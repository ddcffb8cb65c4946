package main

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// -asserts (flow and legacy kinds) adds, after every other draw and from
// its own random source (so a seed writes the same story otherwise), the
// assertions real fixtures write and the flow kind's fixtures did not
// (flow-format §2, §3): expect_no_errors and expect_terminal (most real
// fixtures carry them), expect_state in every path form (dotted, a
// parallel state's P#leaf|leaf, the imported child's kid.x, an @exit),
// expect_not_state, expect_state_in, expect_view_matches (literal,
// anchored, flagged, a bad regex), expect_no_view, expect_host_calls
// with args and times, expect_no_host_calls on a turn and the session,
// expect_events and expect_events_exact with from, to and effect,
// expect_events_count_atleast/atmost, expect_inbox and expect_jobs after
// the clock on the orchestrator path, expect_world_unchanged on the
// legacy path, expect_error with its sub-keys, expect_slots, templated
// slots, intents with no slots: key, display_input, an empty
// initial_world and fixtures of one to three turns;
// and by_call envelopes for the call ids the story's entries carry (c1,
// c2), in the forms real stubs write: data (flat and nested), error,
// infra_error, data beside error (a delay there, which upstream ignores,
// flowtest warns of).
// Here they meet guards, emit chains, jobs, timeouts and an imported
// child, which the expect kind's small stories do not have; the values
// are drawn, not predicted, so they pass at times and fail at others, and
// the differential compares the failure texts.
type assertGen struct {
	rnd    *rand.Rand
	legacy bool
	paths  []string // every state path of the story and its child
	pars   []string // parallel state paths in the P#leaf|leaf form
	hosts  []string // the handlers the fixture stubs, and one it does not
}

func newAssertGen(seed uint64, legacy bool) *assertGen {
	return &assertGen{rnd: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x9fb21c651e98df25)), legacy: legacy}
}

func (x *assertGen) chance(pct int) bool { return x.rnd.IntN(100) < pct }

func (x *assertGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }

// collect lists the state paths under states (prefix is their parent's
// path, "" at the top) and, for a parallel state, its path forms: each
// region's initial leaf, and a random leaf per region.
func (x *assertGen) collect(prefix string, states m) {
	eachState(prefix, states, func(p string, st m) {
		x.paths = append(x.paths, p)
		ch, ok := st["states"].(m)
		if !ok || st["type"] != "parallel" {
			return
		}
		var first, drawn []string
		for _, r := range sortedKeys(ch) {
			leaves := leafPaths(p+"."+r, ch[r])
			if len(leaves) == 0 {
				continue
			}
			first = append(first, leaves[0])
			drawn = append(drawn, leaves[x.rnd.IntN(len(leaves))])
		}
		slices.Sort(first)
		slices.Sort(drawn)
		x.pars = append(x.pars, p+"#"+strings.Join(first, "|"), p+"#"+strings.Join(drawn, "|"))
	})
}

// leafPaths lists the leaf paths under the state st at path p, the
// initial child's first.
func leafPaths(p string, st any) []string {
	s, ok := st.(m)
	if !ok {
		return nil
	}
	ch, ok := s["states"].(m)
	if !ok {
		return []string{p}
	}
	keys := sortedKeys(ch)
	if in, ok := s["initial"].(string); ok && ch[in] != nil {
		keys = append([]string{in}, slices.DeleteFunc(keys, func(k string) bool { return k == in })...)
	}
	var out []string
	for _, k := range keys {
		out = append(out, leafPaths(p+"."+k, ch[k])...)
	}
	return out
}

// state is a state path in one of the forms expect_state compares.
func (x *assertGen) state() string {
	switch r := x.rnd.IntN(100); {
	case r < 12 && len(x.pars) > 0:
		return x.pars[x.rnd.IntN(len(x.pars))]
	case r < 16:
		return x.pick("__exit__done", "p#p.ra.a1", "nowhere", "")
	}
	return x.paths[x.rnd.IntN(len(x.paths))]
}

// apply adds the assertions to the fixture of the story app (kid: its
// child, or nil).
func (x *assertGen) apply(app, kid, fx m) {
	x.collect("", app["states"].(m))
	if kid != nil {
		x.collect("kid", kid["states"].(m))
	}
	hs, _ := fx["host_handlers"].(m)
	x.hosts = append(sortedKeys(hs), "host.none")
	x.byCall(hs)
	orch := !x.legacy
	// the session's assertions
	if x.chance(55) {
		fx["expect_no_errors"] = true
	} else if x.chance(15) {
		fx["expect_no_errors"] = false
	}
	if x.chance(35) {
		fx["expect_terminal"] = x.chance(70)
	}
	if x.chance(10) {
		fx["expect_events_count_atleast"] = x.rnd.IntN(60)
	}
	if x.chance(8) {
		fx["expect_events_count_atmost"] = x.rnd.IntN(60)
	}
	if orch && x.chance(10) {
		fx["expect_no_host_calls"] = []any{x.pick(x.hosts...)}
	}
	if fx["initial_world"] == nil && x.chance(15) {
		fx["initial_world"] = m{}
	}
	turns := asList(fx["turns"])
	if len(turns) > 1 && x.chance(12) {
		// most real fixtures are one to three turns long
		turns = turns[:1+x.rnd.IntN(min(3, len(turns)))]
		fx["turns"] = turns
	}
	for _, t := range turns {
		if turn, ok := t.(m); ok {
			x.turn(turn, orch)
		}
	}
}

// byCall adds by_call envelopes to the stubs of host.ok and host.bad,
// keyed by the ids c1 and c2 entries of the story carry.
func (x *assertGen) byCall(hs m) {
	for _, h := range []string{"host.ok", "host.bad"} {
		stub, ok := hs[h].(m)
		if !ok || !x.chance(30) {
			continue
		}
		bc := m{}
		for _, id := range []string{"c1", "c2"} {
			if !x.chance(70) {
				continue
			}
			switch x.rnd.IntN(5) {
			case 0:
				bc[id] = m{"data": m{"v": "B" + id}}
			case 1:
				bc[id] = m{"data": m{"v": "D" + id, "w": m{"k": []any{1, "two"}}}}
			case 2:
				bc[id] = m{"error": "bc " + id}
			case 3:
				bc[id] = m{"infra_error": "down " + id}
			default:
				bc[id] = m{"data": m{"v": "E" + id}, "error": "both " + id}
			}
		}
		stub["by_call"] = bc
	}
}

// turn adds assertions to one turn.
func (x *assertGen) turn(turn m, orch bool) {
	in, _ := turn["intent"].(m)
	_, clock := turn["advance_clock"]
	if x.chance(45) {
		turn["expect_state"] = x.state()
	}
	if x.chance(5) {
		turn["expect_not_state"] = x.state()
	}
	if x.chance(5) {
		turn["expect_state_in"] = []any{x.state(), x.state()}
	}
	if x.chance(15) {
		turn["expect_view_matches"] = x.pick("V", "^X ", "x0=", "said", "(?s)^.+$", "Actions:", "[0-9]+", "(?i)v ", "boom", `\d`, "^$", "[")
	}
	if x.chance(3) {
		turn["expect_no_view"] = true
	}
	if x.chance(20) || !orch && x.chance(5) {
		var calls []any
		for range 1 + x.rnd.IntN(2) {
			c := m{"handler": x.pick(x.hosts...)}
			if x.chance(30) {
				c["args"] = m{"x": []any{"j", "1", 0, "{{ world.n }}"}[x.rnd.IntN(4)]}
			}
			if x.chance(40) {
				c["times"] = x.rnd.IntN(3)
			}
			calls = append(calls, c)
		}
		turn["expect_host_calls"] = calls
	}
	if x.chance(5) {
		turn["expect_no_host_calls"] = []any{x.pick(x.hosts...)}
	}
	if x.chance(12) {
		var evs []any
		for range 1 + x.rnd.IntN(2) {
			evs = append(evs, x.event())
		}
		key := "expect_events"
		if x.chance(20) {
			key = "expect_events_exact"
		}
		turn[key] = evs
	}
	if orch && x.chance(10) {
		ib := m{"unread": x.rnd.IntN(4)}
		if x.chance(50) {
			var sev []any
			for range x.rnd.IntN(3) {
				sev = append(sev, x.pick("info", "success", "error", "warn"))
			}
			ib["severities"] = sev
		}
		if x.chance(30) {
			ib["needs_attention"] = 0
		}
		turn["expect_inbox"] = ib
	}
	if orch && clock && x.chance(25) {
		var jobs []any
		for range 1 + x.rnd.IntN(2) {
			j := m{"namespace": x.pick("host.job", "host.job", "host.job2", "host.jobf"), "status": x.pick("done", "done", "failed", "cancelled")}
			if x.chance(5) {
				j["status"] = "finished"
			}
			jobs = append(jobs, j)
		}
		turn["expect_jobs"] = jobs
	}
	if !orch && x.chance(8) {
		turn["expect_world_unchanged"] = true
	}
	if in != nil && x.chance(6) {
		e := m{"code": x.pick("GUARD_FAILED", "INTENT_NOT_ALLOWED_IN_STATE", "MISSING_SLOTS", "INVALID_SLOT_VALUE")}
		if x.chance(40) {
			e["allowed_contains"] = []any{x.pick("go1", "ping", "put")}
		}
		if x.chance(20) {
			e["missing_slots"] = []any{"v"}
		}
		turn["expect_error"] = e
	}
	if in != nil && in["name"] == "put" {
		slots, _ := in["slots"].(m)
		if orch && slots != nil && x.chance(15) {
			slots["v"] = x.pick("{{ world.n }}", "{{ world.s }}!", "{{ world.missing }}")
		}
		if x.chance(30) {
			turn["expect_slots"] = m{"v": []any{3, "many", "{{ world.n }}", "0"}[x.rnd.IntN(4)]}
		}
	}
	if slots, ok := in["slots"].(m); ok && len(slots) == 0 && x.chance(30) {
		delete(in, "slots") // an intent with no slots: key, as 23 real turns write
	}
	if orch && in != nil && x.chance(3) {
		turn["display_input"] = "typed " + x.pick("go", "")
	}
}

// event is one expected event: a kind the turn's batch holds, with a
// from, to or effect at times.
func (x *assertGen) event() m {
	switch x.rnd.IntN(9) {
	case 0:
		return m{"kind": "machine.transition", "to": x.state()}
	case 1:
		return m{"kind": "machine.transition", "from": x.state(), "to": x.state()}
	case 2:
		return m{"kind": "world.update", "effect": m{"set": m{x.pick("n", "s", "r"): []any{1, "hi", "R", 0}[x.rnd.IntN(4)]}}}
	case 3:
		return m{"kind": "harness.dispatched", "effect": m{"namespace": x.pick(x.hosts...)}}
	case 4:
		return m{"kind": x.pick("harness.returned", "harness.called")}
	case 5:
		return m{"kind": "scheduler.submitted"}
	case 6:
		return m{"kind": "machine.say"}
	case 7:
		return m{"kind": "machine.state_entered"}
	}
	return m{"kind": x.pick("turn.end", "turn.start", "machine.intent_accepted")}
}
