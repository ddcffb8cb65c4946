package main

// hostFixture draws one orchestrator fixture for a host story: stubs of
// every form for some handlers (others left out, so their calls are the
// "no handler registered" infra error), turns that drive the calls and
// advance the clock, and assertions on what the calls left.
func (g *gen) hostFixture(states m) m {
	hh := m{}
	// host.run: data, by_call, error, infra_error, a delay (virtual in a
	// job, real time in a foreground call upstream: at most 1s)
	// the handlers jobs call are always served (a job failing at once on
	// a missing handler lands whenever upstream's listener runs)
	hh["host.run"] = g.hostStub("10ms", "100ms")
	// host.git is reached by prefix (host.git.status → op "status")
	{
		st := g.hostStub("20ms", "200ms")
		delete(st, "request_clarification")
		if g.chance(50) {
			st["by_op"] = m{
				"status": m{"data": m{"branch": "main", "files": []any{"a.go", "b.go"}}},
				"log":    g.hostEnvelope(),
			}
		}
		hh["host.git"] = st
		if g.chance(20) {
			// an exact name wins over the prefix
			hh["host.git.status"] = g.hostEnvelope()
		}
	}
	if g.chance(60) {
		hh["host.inbox.add"] = m{"data": m{"ok": true, "id": g.pick("N1", "7"), "persisted": g.chance(50)}}
	}
	if g.chance(70) {
		// the interface's binding, by its default or a prefix of it
		hh[g.pick("host.local_files.ticket", "host.local_files.ticket", "host.local_files", "host.local_files.ticket.search")] = g.hostTicketStub()
	}
	hh[g.pick("host.agent.task", "host.agent.task", "host.agent")] = g.hostStub("30ms", "1s")
	if g.chance(15) {
		hh["host.nope"] = m{"data": m{"v": "here"}}
	}
	if g.chance(10) {
		// a stub overrides the real answer_clarification
		hh["host.jobs.answer_clarification"] = m{"data": m{"answered": "stubbed"}}
	}
	f := m{"test_kind": "flow", "app": "../app.yaml", "host_handlers": hh}
	if g.chance(80) {
		f["initial_state"] = "idle"
	}
	if g.chance(30) {
		f["initial_world"] = []m{{"n": 2}, {"tag": "z"}, {"out": "pre"}, {"res": m{"k": 1}}}[g.rnd.IntN(4)]
	}
	if g.chance(20) {
		f["expect_no_errors"] = true
	}
	if g.chance(6) {
		f["expect_no_host_calls"] = []any{g.pick("host.nope", "host.inbox.add", "host.git.log", "host.run")}
	}
	sim := &hostSim{states: states, stubs: hh, cur: "idle"}
	var turns []any
	for range 3 + g.rnd.IntN(6) {
		turns = append(turns, g.hostTurn(sim))
	}
	f["turns"] = turns
	return f
}

// hostStub is a stub for a handler some story calls in the background,
// with one of delays: only a top-level delay sleeps on the fake clock.
func (g *gen) hostStub(delays ...string) m {
	st := g.hostEnvelope()
	if g.chance(35) {
		bc := m{}
		for range 1 + g.rnd.IntN(3) {
			bc[g.pick("r1", "r2", "g1", "t1", "j1", "w1", "r-0", "r-2", "r-{{ world.n }}", "s-q", "s-")] = g.hostEnvelope()
		}
		if g.chance(30) {
			// ignored upstream: an envelope has no delay
			bc[sortedKeys(bc)[0]].(m)["delay"] = "5s"
		}
		st["by_call"] = bc
	}
	// a job that ends at once lands its on_complete whenever upstream's
	// listener gets the lock (flow-format §5.5): every job waits for an
	// advance; a foreground call sleeps this long upstream
	st["delay"] = g.pick(delays...)
	if g.chance(12) {
		st["request_clarification"] = g.pick("Which env?", "Proceed?")
	}
	return st
}

// hostEnvelope is one answer: data of every shape, a domain error (with
// or without data), an infra error, or nothing at all.
func (g *gen) hostEnvelope() m {
	switch g.rnd.IntN(12) {
	case 0, 1, 2:
		return m{"data": m{"stdout": g.pick("R", "hello\n", ""), "exit_code": []any{0, 1, 2}[g.rnd.IntN(3)],
			"stdout_json": m{"a": m{"b": g.pick("deep", "1")}}}}
	case 3:
		return m{"data": m{"branch": g.pick("main", "dev"), "files": []any{"x.go", m{"p": "y"}}, "head": m{"sha": "abc"}}}
	case 4:
		return m{"data": m{"ok": true, "submitted": m{"summary": g.pick("did it", ""), "n": 3}}}
	case 5:
		return m{"data": m{"v": []any{1, "two", nil, 2.5}[g.rnd.IntN(4)], "list": []any{1, 2}}}
	case 6:
		return m{"data": m{}}
	case 7:
		return m{"error": g.pick("boom", "exit 1")}
	case 8:
		return m{"error": "half", "data": m{"stdout": "partial", "exit_code": 3, "stderr": "E!"}}
	case 9:
		return m{"infra_error": "transport down"}
	case 10:
		return m{"data": m{"results": []any{m{"id": "T-1", "title": "one"}, m{"id": "T-2"}}, "ticket": m{"title": "tt"}}}
	default:
		return m{"data": m{"stdout": 7, "exit_code": "0"}}
	}
}

// hostTicketStub answers the ticket interface, per op sometimes.
func (g *gen) hostTicketStub() m {
	st := m{"data": m{"results": []any{m{"id": "T-1", "title": "one"}}, "ticket": m{"title": "t"}}}
	if g.chance(40) {
		st["by_op"] = m{"search": m{"data": m{"results": []any{}}}, "get": g.hostEnvelope()}
	}
	if g.chance(15) {
		st = g.hostEnvelope()
	}
	return st
}

// hostTurn is one turn: an intent, a clock advance covering every job
// delay (2s or more), or both, with some assertions.
func (g *gen) hostTurn(sim *hostSim) m {
	t := m{}
	state, known := "", false
	if g.chance(85) {
		in := g.pick("run", "run", "bg", "bg", "look", "back", "fix", "tag", "answer")
		slots := m{}
		switch in {
		case "tag":
			slots["v"] = g.pick("q", "{{ world.n }}")
		case "answer":
			slots["answer"] = g.pick("prod", "")
			if g.chance(40) {
				slots["job_id"] = g.pick("{{ world.last_job_id }}", "nope")
			}
		}
		t["intent"] = m{"name": in, "slots": slots}
		state, known = sim.intent(in)
		if in == "bg" || in == "answer" || g.chance(35) {
			// the job a bg turn submits (or an answer resumes) ends in
			// it: two jobs ending in one advance end in a random order
			// upstream
			t["advance_clock"] = g.pick("2s", "2s", "10m")
		}
	} else {
		t["advance_clock"] = g.pick("2s", "10m", "1h")
		sim.calls = nil
	}
	if t["advance_clock"] != nil {
		sim.advance()
		state, known = sim.cur, !sim.lost
	}
	switch {
	case known && g.chance(40):
		// where the arcs and redirects lead (hostSim)
		t["expect_state"] = state
	case g.chance(2):
		t["expect_state"] = g.pick("idle", "work", "waiting", "done", "failed")
	}
	if known && len(sim.calls) > 0 && g.chance(35) {
		// a call the turn makes (hostSim), by name, id and count
		c := sim.calls[g.rnd.IntN(len(sim.calls))]
		hc := m{"handler": c[0]}
		if c[1] != "" && g.chance(50) {
			hc["args"] = m{"call": c[1]}
		} else if g.chance(50) {
			n := 0
			for _, x := range sim.calls {
				if x[0] == c[0] {
					n++
				}
			}
			hc["times"] = n
		}
		t["expect_host_calls"] = []any{hc}
	}
	if g.chance(3) {
		ew := m{}
		switch g.rnd.IntN(7) {
		case 0:
			ew["out"] = g.pick("R", "hello\n", "", "R-x", "did it", "partial")
		case 1:
			ew["code"] = []any{0, 1, 3, "0"}[g.rnd.IntN(4)]
		case 2:
			ew["res"] = []any{"main", m{}, m{"id": "T-1", "title": "one"}, "deep"}[g.rnd.IntN(4)]
		case 3:
			ew["last_error"] = g.pick("boom", `host: no handler registered for "host.nope"`, "transport down", "half")
		case 4:
			ew["status"] = g.pick("done", "failed", "", "got hello\n")
		case 5:
			ew["n"] = g.rnd.IntN(3)
		default:
			ew["items"] = []any{[]any{}, []any{"x.go", m{"p": "y"}}, []any{m{"id": "T-1", "title": "one"}}}[g.rnd.IntN(3)]
		}
		t["expect_world"] = ew
	}
	if t["expect_host_calls"] == nil && g.chance(3) {
		hc := m{"handler": g.pick("host.run", "host.git.status", "host.git.log", "host.inbox.add",
			"host.local_files.ticket.search", "host.agent.task", "host.nope", "iface.ticket.search", "host.git")}
		switch g.rnd.IntN(4) {
		case 0:
			hc["args"] = m{"call": g.pick("r1", "r-0", "g1", "w1")}
		case 1:
			hc["args"] = m{"cmd": g.pick("echo 0", "true", "cat")}
		case 2:
			hc["args"] = m{"query": g.pick("a", "b"), "op": "search"}
		}
		if g.chance(50) {
			hc["times"] = g.rnd.IntN(3)
		}
		t["expect_host_calls"] = []any{hc}
	}
	if g.chance(2) {
		t["expect_no_host_calls"] = []any{g.pick("host.run", "host.nope", "host.git.status")}
	}
	if g.chance(3) {
		ei := m{}
		if g.chance(70) {
			ei["unread"] = g.rnd.IntN(4)
		}
		if g.chance(50) {
			ei["severities"] = [][]any{{"info"}, {"info", "success"}, {"error", "info"}, {"action_required", "info"}, {}}[g.rnd.IntN(5)]
		}
		if g.chance(30) {
			ei["needs_attention"] = g.rnd.IntN(2)
		}
		t["expect_inbox"] = ei
	}
	if t["advance_clock"] != nil && g.chance(3) {
		t["expect_jobs"] = []any{m{"namespace": g.pick("host.run", "host.agent.task", "host.git.fetch"),
			"status": g.pick("done", "failed", "awaiting_input", "done")}}
	}
	switch {
	case t["intent"] != nil && g.chance(6):
		// every intent turn moves the machine; a turn that calls
		// dispatches (hostSim)
		kind := "machine.transition"
		if known && len(sim.calls) > 0 && g.chance(50) {
			kind = g.pick("harness.dispatched", "harness.returned")
		}
		t["expect_events"] = []any{m{"kind": kind}}
	case g.chance(2):
		t["expect_events"] = []any{m{"kind": g.pick("scheduler.submitted", "world.update")}}
	}
	return t
}
