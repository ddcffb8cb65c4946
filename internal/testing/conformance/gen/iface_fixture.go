package main

import "strings"

// fixture draws the iface kind's fixture i: stubs for host.tk1..4 (an
// error envelope at times, an exact stub host.tk2.get beside the prefix
// one, host.starlark.run stubbed), host_bindings on every fixture but the
// first (ifaceFixtureBindings), the legacy path at times, and a walk of
// the three levels' intents (ifWalk).
func (g *ifGen) fixture(i int) m {
	// every stub sleeps: a job's sleep is on the fixture's clock, so it
	// ends in the advance after it (one that failed or ended at once
	// would land whenever upstream's listener runs, before or after the
	// turn's view); a foreground call's is real time
	hh := m{"host.job": m{"data": m{}, "delay": "100ms"}}
	for _, s := range ifStubs {
		switch r := g.rnd.IntN(100); {
		case r < 8:
			hh[s] = m{"error": s + " down", "delay": "10ms"}
		case r < 14:
			// left out: "no handler registered" (or the real one under host_bindings)
		default:
			hh[s] = m{"data": m{"v": s[5:]}, "delay": "10ms"}
		}
	}
	if g.chance(20) {
		hh["host.tk2.get"] = m{"data": m{"v": "tk2get"}}
	}
	if st, ok := hh["host.tk1"].(m); ok && g.chance(35) {
		// by_op keys on the dropped suffix (get.get when a binding
		// names host.tk1.get), by_call on the effect's id
		st["by_op"] = m{"get": m{"data": m{"v": "tk1op"}}, "get.get": m{"data": m{"v": "tk1opop"}}, "run": m{"data": m{"v": "tk1run"}}}
		if g.chance(50) {
			st["by_call"] = m{"c1": m{"data": m{"v": "tk1c1"}}}
		}
	}
	if g.chance(15) {
		hh["host.starlark.run"] = m{"data": m{"v": "stubstar"}}
	}
	f := m{"test_kind": "flow", "app": "../app.yaml", "initial_state": "s", "host_handlers": hh}
	if i > 0 {
		f["host_bindings"] = g.fixtureBindings()
	}
	if g.chance(15) {
		f["expect_no_host_calls"] = []any{g.pick(append(ifStubs, "host.tkx", "host.starlark.run", "iface.tk.get")...)}
	}
	legacy := g.chance(8)
	if legacy {
		f["use_orchestrator"] = false
	}
	f["turns"] = g.walk(legacy)
	return f
}

// fixtureBindings draws a fixture's host_bindings: one to three keys among
// the top's interfaces, the lifted names and names no interface has.
func (g *ifGen) fixtureBindings() m {
	var keys []string
	for _, d := range g.top.ifaces {
		keys = append(keys, d.name)
	}
	keys = append(keys, g.top.lifted...)
	if g.kid2 {
		for _, l := range g.top.lifted {
			keys = append(keys, "kid2__"+l[len("kid__"):])
		}
	}
	keys = append(keys, "nope", "kid__nope", "gk__tk", "tk", "a.b")
	values := append(append([]string{}, ifStubs...), "host.tkx", "host.starlark", "host.run", "host.tk1.get", "host.tk2.sub", "iface.vc", "kid__tk")
	hb := m{}
	for range 1 + g.rnd.IntN(3) {
		v := g.pick(values...)
		if g.chance(2) {
			// stops upstream's whole run (golden binding-empty)
			v = ""
		}
		hb[g.pick(keys...)] = v
	}
	return hb
}

// walk draws a fixture's turns: intents of the level the session is in
// (and now and then one of another level, refused), with a look and a
// clock advance after a job.
func (g *ifGen) walk(legacy bool) []any {
	loc := "s"
	var turns []any
	for range 8 + g.rnd.IntN(10) {
		name, next := g.step(loc)
		t := m{"intent": m{"name": name}}
		if g.chance(12) {
			t["expect_host_calls"] = []any{m{"handler": g.pick(append(ifStubs, "host.tkx", "host.starlark.run", "host.tk1.get")...)}}
		}
		turns = append(turns, t)
		if !legacy && g.jobs[strings.TrimSuffix(loc, "2")] && (name == "tj" || name == "kj") {
			turns = append(turns, m{"advance_clock": "1s"}, m{"intent": m{"name": "look"}})
		}
		loc = next
	}
	return turns
}

// step is one intent from loc and where it leads.
func (g *ifGen) step(loc string) (name, next string) {
	if g.chance(8) {
		return g.pick("ks", "gs", "t0", "tj", "out"), loc
	}
	switch loc {
	case "s":
		name = g.pick("t0", "t1", "tl", "tj", "look", "k", "k", "tw", "tp")
		if g.kid2 && g.chance(25) {
			name = "k2"
		}
		switch name {
		case "k":
			return name, "kid"
		case "k2":
			return name, "kid2"
		case "tw":
			return name, "w"
		case "tp":
			return name, "p"
		}
		return name, loc
	case "w", "p":
		if g.chance(50) {
			return "back", "s"
		}
		return "look", loc
	case "kid", "kid2":
		name = g.pick("ks", "kc", "kl", "kj", "look", "out")
		if g.hasGK && g.chance(20) {
			return "g", loc + ".gk"
		}
		if name == "out" {
			return name, "s"
		}
		return name, loc
	}
	// in gk
	if g.chance(30) {
		return "gout", loc[:len(loc)-len(".gk")]
	}
	return "gs", loc
}
