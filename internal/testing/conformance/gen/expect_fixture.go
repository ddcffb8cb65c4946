package main

import (
	"fmt"
	"slices"
)

// fixtureDocs draws one fixture file: one document, sometimes two, a few
// of them fatal to the whole run (a bad mode, a cassette with handlers).
func (g *xgen) fixtureDocs() []m {
	docs := []m{g.fixtureDoc()}
	if g.chance(25) {
		docs = append(docs, g.fixtureDoc())
	}
	return docs
}

// fixtureDoc draws one flow document: its path (forced either way, or
// chosen by its keys), start, turns with every turn assertion and the
// session assertions, each with a value the model predicts to pass or,
// less often, one that fails.
func (g *xgen) fixtureDoc() m {
	s := g.s
	f := m{"test_kind": "flow", "app": "../app.yaml"}
	// most documents hold only values the model predicts to pass; the
	// others fail some of theirs
	g.bad = 0
	f["note"] = "clean" // an unknown key: upstream ignores it
	if g.chance(35) {
		g.bad = 20
		f["note"] = "mixed"
	}
	legacy := g.chance(50)
	switch {
	case legacy:
		f["use_orchestrator"] = false
	case g.chance(80):
		f["use_orchestrator"] = true
	}
	if s.host || g.chance(30) {
		f["host_handlers"] = m{"host.ok": m{"data": m{"v": "R"}}}
		if g.chance(2) {
			f["host_cassette"] = "none.cassette.yaml" // fatal with handlers
		}
		if legacy && g.chance(40) {
			delete(f, "host_handlers") // forced legacy either way
		}
		if f["host_cassette"] == nil && g.chance(25) {
			// the cassette answers host.ok as the stub would
			delete(f, "host_handlers")
			f["host_cassette"] = "cassettes/ok.cassette.yaml"
			if g.chance(30) {
				f["strict_cassette_coverage"] = true
			}
		}
	}
	if !legacy && f["use_orchestrator"] == nil && f["host_handlers"] == nil && f["host_cassette"] == nil {
		legacy = true // nothing selects the orchestrator
	}
	switch r := g.rnd.IntN(100); {
	case r < 10:
		f["mode"] = "staged"
	case r < 14:
		f["mode"] = "one-shot"
	case r < 18:
		f["mode"] = "oneshot"
	case r < 21:
		f["mode"] = ""
	case r < 22:
		f["mode"] = "batch" // fatal
	}
	// the start
	state := "idle"
	switch r := g.rnd.IntN(100); {
	case r < 60:
		f["initial_state"] = "idle"
	case r < 66:
		f["initial_state"] = "a"
	case r < 72:
		f["initial_state"] = "c.c1"
	case r < 76:
		f["initial_state"] = "c"
	case r < 80:
		f["initial_state"] = parStart
	case r < 82:
		f["initial_state"] = "nowhere"
		state = "nowhere"
	case r < 84:
		f["initial_state"] = "c/c1" // verbatim: no state of the story
		state = "c/c1"
	case r < 86:
		f["initial_state"] = "b"
		state = "b"
	case r < 88:
		f["initial_state"] = "p"
		state = parStart
	default:
		if legacy {
			state = ""
		}
	}
	switch v := f["initial_state"]; v {
	case "a", "c.c1", parStart:
		state = v.(string)
	case "c":
		state = "c.c1"
	}
	w := &xworld{}
	switch r := g.rnd.IntN(100); {
	case r < 20:
		w.n = g.rnd.IntN(5)
		f["initial_world"] = m{"n": w.n}
	case r < 25:
		f["initial_world"] = m{"zz": "undeclared", "s": "seeded"}
		w.s = "seeded"
	case r < 28:
		f["initial_world"] = m{}
	case r < 30:
		f["initial_world"] = nil
	case r < 35:
		f["initial_world"] = m{"r": "R"} // w's emit fires at walk time
		w.r = "R"
	}
	if g.chance(5) {
		f["bogus_top"] = true
	}
	// turns: [] (n 0) runs only the session checks; events grows by 3
	// a turn, so events*5 is a count no run of these turns reaches
	turns := []any{}
	hadErr, events := false, 0
	n := 2 + g.rnd.IntN(5)
	if g.chance(3) {
		n = 0
	}
	for range n {
		if !legacy && g.chance(8) {
			// a clock-only turn: nothing is due, the state stays
			ct := m{"advance_clock": g.pick("1s", "2m")}
			if g.chance(60) {
				ct["expect_state"] = state
				if g.wrong() {
					ct["expect_state"] = "idle"
				}
			}
			if g.chance(30) {
				ct["expect_world"] = m{"n": w.n}
			}
			turns = append(turns, ct)
			continue
		}
		t, st, rejected := g.turn(state, w, legacy, f["mode"] == "staged")
		turns = append(turns, t)
		hadErr = hadErr || rejected
		state = st
		events += 3
	}
	f["turns"] = turns
	// session assertions
	if g.chance(45) {
		f["expect_terminal"] = s.terminal(state) != g.wrong()
	}
	if g.chance(35) {
		f["expect_no_errors"] = hadErr == g.wrong()
	}
	if g.chance(15) {
		v := w.n
		if g.wrong() {
			v++
		}
		f["expect_world_final"] = m{"n": v}
	}
	if g.chance(10) {
		f["expect_events_count_atleast"] = g.pick2(1, events*5)
	}
	if g.chance(10) {
		f["expect_events_count_atmost"] = g.pick2(events*5, 1)
	}
	if g.chance(8) && !legacy {
		f["expect_no_host_calls"] = []any{g.pick("host.ok", "host.nope")}
	}
	return f
}

// wrong: draw a value that fails (only in a document that fails some).
func (g *xgen) wrong() bool { return g.bad > 0 && g.chance(g.bad) }

// pick2 is a, or b when wrong.
func (g *xgen) pick2(a, b int) int {
	if !g.wrong() {
		return a
	}
	return b
}

// turn draws one turn from state and world (changed in place as the
// model predicts); it returns the state the next turn starts from and
// whether this one was rejected.
func (g *xgen) turn(state string, w *xworld, legacy, staged bool) (m, string, bool) {
	s := g.s
	t := m{}
	allowed := s.allowedIn(state)
	in := g.pick(xIntents...)
	if len(allowed) > 0 && g.chance(70) {
		in = allowed[g.rnd.IntN(len(allowed))]
	}
	if g.chance(3) {
		in = "ghost" // declared nowhere
	}
	slots := m{}
	switch in {
	case "need":
		if g.chance(75) {
			slots["who"] = g.pick("ann", "bo", "", "{{ world.n }}")
		}
	case "opt":
		if g.chance(50) {
			slots["v"] = g.rnd.IntN(9)
		} else if g.chance(20) {
			slots["v"] = "x" // not an int
		}
	}
	// the orchestrator path renders a slot's {{ }} against the world
	// before this turn's world_override; the legacy path sends it as is
	sent := m{}
	for k, v := range slots {
		sent[k] = v
		if v == "{{ world.n }}" && !legacy {
			sent[k] = fmt.Sprint(w.n)
		}
	}
	intent := m{"name": in}
	if len(slots) > 0 || g.chance(50) {
		intent["slots"] = slots
	}
	if g.chance(3) {
		intent["bogus"] = 1
	}
	t["intent"] = intent
	if g.chance(10) {
		w.n = 2 + g.rnd.IntN(3)
		t["world_override"] = m{"n": w.n}
		if g.chance(30) {
			t["world_override"] = m{"n": w.n, "zz": "undeclared"}
		}
	}
	before := *w
	after := *w
	res := s.step(state, &after, in, sent, legacy, staged)
	if in == "ghost" {
		res.code = "INTENT_NOT_ALLOWED_IN_STATE"
	}
	rejected := res.code != ""
	next := res.state
	if rejected || res.clarify {
		after = before
	}
	if (rejected || (res.clarify && legacy) || g.wrong()) && (g.bad == 0 || g.chance(80)) {
		ee := m{"code": res.code}
		switch {
		case res.clarify:
			ee["code"] = "MISSING_SLOTS" // fails on the orchestrator path
		case !rejected:
			ee["code"] = g.pick("GUARD_FAILED", "INTENT_NOT_ALLOWED_IN_STATE")
		case g.wrong():
			ee["code"] = g.pick("GUARD_FAILED", "MISSING_SLOTS", "INTENT_NOT_ALLOWED_IN_STATE", "UNKNOWN_INTENT")
		}
		if g.chance(30) {
			var ac []any
			allowed := res.allowed
			if legacy && ee["code"] != "INTENT_NOT_ALLOWED_IN_STATE" {
				allowed = nil // upstream's machine lists them only there
			}
			for _, a := range allowed {
				if g.chance(50) {
					ac = append(ac, a)
				}
			}
			if g.wrong() {
				ac = append(ac, "ghost")
			}
			ee["allowed_contains"] = ac
		}
		if (ee["code"] == "MISSING_SLOTS" || g.wrong()) && g.chance(50) {
			ee["missing_slots"] = []any{"who"}
			if g.wrong() {
				ee["missing_slots"] = []any{"v"}
			}
		}
		if g.chance(15) {
			ee["guard_hint"] = "anything"
		}
		if g.chance(5) {
			ee["bogus"] = true
		}
		t["expect_error"] = ee
		if legacy && !rejected {
			// upstream's legacy path throws the accepted turn away
			next, after = state, before
		}
		// assertions an expect_error turn never runs
		if g.chance(30) {
			t["expect_state"] = "never-checked"
		}
		*w = after
		return t, next, rejected
	}
	*w = after
	g.stateKeys(t, next)
	g.worldKeys(t, before, after, legacy)
	if len(slots) > 0 && g.chance(30) {
		es := m{}
		for k, v := range sent {
			es[k] = v
			if g.wrong() {
				es[k] = "other"
			}
		}
		t["expect_slots"] = es
	} else if g.wrong() {
		t["expect_slots"] = m{"who": "absent"}
	}
	g.eventKeys(t, in, state, next, rejected, legacy, res)
	if v := s.view(next); g.chance(25) && (v != "" || g.wrong()) {
		re := "^" + v + " n="
		switch {
		case v == "" || g.wrong():
			re = g.pick("^NOPE", "n=99", "(")
		}
		t["expect_view_matches"] = re
	} else if g.chance(10) {
		t["expect_no_view"] = v == "" != g.wrong()
	}
	if !legacy && g.chance(6) {
		// no background job ever runs here: the inbox stays empty
		ib := m{"unread": 0}
		if g.chance(50) {
			ib["needs_attention"] = 0
			ib["severities"] = []any{}
		}
		if g.wrong() {
			ib["unread"] = 1
		}
		t["expect_inbox"] = ib
	}
	if !legacy && g.chance(8) {
		h := "host.nope"
		if res.calls > 0 == g.wrong() {
			h = "host.ok"
		}
		t["expect_no_host_calls"] = []any{h}
	}
	if res.calls > 0 && !legacy && g.chance(50) {
		hc := m{"handler": "host.ok"}
		if g.chance(50) {
			hc["times"] = res.calls
		}
		if g.chance(20) {
			hc["id"] = "ignored"
		}
		t["expect_host_calls"] = []any{hc}
	}
	// keys upstream ignores at turn level
	switch r := g.rnd.IntN(100); {
	case r < 4:
		t["then"] = m{"expect_state": "nowhere"}
	case r < 8:
		t["expect_world_final"] = m{"n": 99}
	case r < 12:
		t["expect_terminal"] = true
	case r < 14:
		t["bogus_turn_key"] = "x"
	}
	return t, next, rejected
}

func (g *xgen) stateKeys(t m, next string) {
	if g.chance(4) {
		// empty: upstream reads it as unset
		t[g.pick("expect_state", "expect_not_state")] = ""
		t["expect_state_in"] = []any{}
		return
	}
	wrong := g.pick("idle", "a", "c.c1", parStart, "done", "__exit__out")
	if g.chance(60) {
		if !g.wrong() {
			t["expect_state"] = next
		} else {
			t["expect_state"] = wrong
		}
	}
	if g.chance(12) {
		if wrong == next || g.wrong() {
			t["expect_not_state"] = next
		} else {
			t["expect_not_state"] = wrong
		}
	}
	if g.chance(12) {
		in := []any{wrong}
		if !g.wrong() {
			in = append(in, next)
		}
		t["expect_state_in"] = in
	}
}

func (g *xgen) worldKeys(t m, before, after xworld, legacy bool) {
	if g.chance(40) {
		ew := m{}
		switch g.rnd.IntN(4) {
		case 0:
			ew["n"] = after.n
		case 1:
			ew["s"] = after.s
		case 2:
			ew["b"] = after.b
		default:
			ew["n"], ew["s"] = after.n, after.s
			if g.wrong() {
				ew["n"] = after.n + 1
			}
		}
		if g.chance(10) {
			ew["missing_key"] = nil
		}
		if g.wrong() {
			ew["n"] = fmt.Sprint(after.n) // a string is not the number
		}
		t["expect_world"] = ew
	}
	if (legacy || g.bad > 0) && g.chance(10) {
		// upstream's orchestrator world holds a random session_id
		full := m{"n": after.n, "s": after.s, "b": after.b, "r": after.r,
			"last_error": "", "session_cost_usd": 0, "turn_cost_usd": 0, "write_mode_scope": ""}
		if !legacy {
			full["ide"] = m{"connected": false}
		}
		if g.wrong() {
			delete(full, "b")
		}
		if g.wrong() {
			full["n"] = after.n + 2
		}
		t["expect_world_full"] = full
	}
	if g.chance(12) && (before == after || !legacy || g.wrong()) {
		t["expect_world_unchanged"] = true // checked on the legacy path only
	}
}

func (g *xgen) eventKeys(t m, in, from, next string, rejected, legacy bool, res xresult) {
	if !legacy && g.chance(12) {
		d := g.pick("typed "+in, "[intent] "+in, "")
		t["display_input"] = d
		want := d
		if d == "" || g.wrong() {
			want = "[intent] " + in
		}
		t["expect_events"] = []any{m{"kind": "turn.input", "effect": m{"input": want}}}
		return
	}
	if g.chance(20) {
		ev := m{"kind": "machine.transition"}
		if g.chance(60) {
			ev["from"] = from
		}
		ev["to"] = next
		if g.chance(30) {
			ev["effect"] = m{"intent": in}
		}
		if g.wrong() || rejected {
			ev["to"] = g.pick("idle", "done", "zz")
		}
		list := []any{ev}
		if a := res.arm; a != nil && a.inc > 0 && g.chance(50) {
			inc := a.inc
			if g.wrong() {
				inc++
			}
			list = append(list, m{"kind": "world.update", "effect": m{"increment": m{"n": inc}}})
		}
		if g.wrong() {
			list = append(list, m{"kind": g.pick("machine.state_entered", "world.update", "turn.end", "machine.validation_failed")})
		}
		t["expect_events"] = list
	} else if ks := exactKinds(from, next, legacy, res); (ks != nil || g.bad > 0) && g.chance(10) {
		if ks == nil || g.wrong() {
			ks = []string{"machine.transition", "machine.state_entered"}
		}
		var ex []any
		for _, k := range ks {
			ex = append(ex, m{"kind": k})
		}
		t["expect_events_exact"] = ex
	}
}

// exactKinds is a turn's whole event list where the model knows it: an
// accepted arm from one top-level leaf to another, calling no host; nil
// otherwise.
func exactKinds(from, next string, legacy bool, res xresult) []string {
	leaf := func(s string) bool { return slices.Contains(xLeaves, s) }
	a := res.arm
	if a == nil || a.invokes || !leaf(from) || !leaf(next) || from == next {
		return nil
	}
	ks := []string{"machine.transition"}
	for _, on := range []bool{a.inc > 0, a.setWho, a.setB} {
		if on {
			ks = append(ks, "world.update")
		}
	}
	ks = append(ks, "machine.state_exited", "machine.state_entered")
	if !legacy {
		ks = slices.Concat([]string{"turn.input", "turn.start", "machine.intent_accepted"}, ks, []string{"turn.end"})
	}
	return ks
}
