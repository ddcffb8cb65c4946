package main

import (
	"fmt"
	"slices"
)

// agentFixtures draws an agent story's fixtures: one fed by
// host_handlers stubs, one by a host cassette, and sometimes one on the
// legacy path whose utterances a recording classifies. Cassettes and the
// recording sit in flows/cassettes/, which the flow glob does not scan.
func (g *gen) agentFixtures() []agentFile {
	files := []agentFile{
		{"flows/h.yaml", g.agentHandlersFixture()},
	}
	cas, fix := g.agentCassetteFixture()
	files = append(files, agentFile{"flows/cassettes/c.yaml", cas}, agentFile{"flows/c.yaml", fix})
	if g.chance(50) {
		rec, fix := g.agentRecordingFixture()
		files = append(files, agentFile{"flows/cassettes/rec.yaml", rec}, agentFile{"flows/r.yaml", fix})
	}
	return files
}

// decideAnswer is one envelope a decide call may get: a valid verdict,
// one the schema would refuse, one with fields missing, a domain error,
// an infra error, or an error that still carries data.
func (g *gen) decideAnswer() m {
	return g.withCost(g.decideEnvelope())
}

// decideEnvelope draws decideAnswer's envelope.
func (g *gen) decideEnvelope() m {
	switch g.rnd.IntN(10) {
	case 0, 1, 2:
		sub := m{"decision": g.pick("yes", "no"), "confidence": []any{0.9, 0.3, 1, 0, "0.7"}[g.rnd.IntN(5)]}
		if g.chance(70) {
			sub["reason"] = g.pick(g.text.pool([]string{"fine", "stale docs", ""})...)
		}
		return m{"data": m{"ok": true, "exit_code": 0, "submitted": sub}}
	case 3:
		return m{"data": m{"ok": true, "submitted": m{"decision": []any{"maybe", 5, true, nil}[g.rnd.IntN(4)], "confidence": g.pick("high", "low")}}}
	case 4:
		return m{"data": m{"ok": true, "submitted": g.pick2(m{}, nil)}}
	case 5:
		return m{"data": m{"ok": g.chance(50)}}
	case 6:
		return m{"error": "validator: session abandoned without successful submit"}
	case 7:
		return m{"infra_error": "agent transport down"}
	case 8:
		return m{"error": "low confidence", "data": m{"ok": false, "submitted": m{"decision": "no", "confidence": 0.1}}}
	default:
		return m{"data": m{"ok": true, "submitted": m{"decision": "yes", "confidence": 0.2, "reason": m{"text": "nested"}}}}
	}
}

// pick2 draws one of two values of any kind.
func (g *gen) pick2(a, b any) any {
	if g.chance(50) {
		return a
	}
	return b
}

// askAnswer is one envelope an ask or task call may get.
func (g *gen) askAnswer() m {
	return g.withCost(g.askEnvelope())
}

// withCost now and then adds to an envelope's data the meta an agent
// transport reports (cost_usd, usage): a stub's or an episode's data
// charges no turn_cost_usd upstream, which only its agent dispatcher
// accounts (conformance agent-cost-stub-not-folded).
func (g *gen) withCost(env m) m {
	if d, ok := env["data"].(m); ok && g.chance(30) {
		d["meta"] = m{"cost_usd": []any{0.25, 0.5, 0, 1, "0.1"}[g.rnd.IntN(5)], "usage": m{"input_tokens": 5, "output_tokens": 3}}
	}
	return env
}

// askEnvelope draws askAnswer's envelope.
func (g *gen) askEnvelope() m {
	switch g.rnd.IntN(6) {
	case 0, 1:
		return m{"data": m{"ok": true, "submitted": m{"answer": g.pick(g.text.pool([]string{"because", "42", ""})...), "summary": "did it"}}}
	case 2:
		return m{"data": m{"answer": "plain"}}
	case 3:
		return m{"error": "agent refused"}
	case 4:
		return m{"infra_error": "agent gone"}
	default:
		return m{"data": m{}}
	}
}

// agentHandlersFixture feeds answers through host_handlers stubs.
func (g *gen) agentHandlersFixture() m {
	hh := m{}
	if g.chance(90) {
		st := g.decideAnswer()
		if g.chance(40) {
			// by_call: the call site d1 (or d0) gets its own answer
			st["by_call"] = m{g.pick("d1", "d0", "d-1"): g.decideAnswer(), "d2": g.decideAnswer()}
		}
		hh["host.agent.decide"] = st
	}
	if g.chance(80) {
		hh["host.agent.ask"] = g.askAnswer()
	}
	if g.chance(50) {
		st := g.askAnswer()
		if g.chance(30) {
			// a foreground delay sleeps real time upstream: keep it short
			st["delay"] = "1s"
		}
		hh["host.agent.task"] = st
	}
	if g.chance(40) {
		hh["host.agent."+g.pick("converse", "extract", "search")] = g.askAnswer()
	}
	if len(hh) == 0 {
		hh["host.agent.task"] = g.askAnswer()
	}
	f := g.agentFixtureBase()
	f["host_handlers"] = hh
	return f
}

// agentCassetteFixture feeds answers through a host cassette: episodes
// keyed on handler (an agent alias at times) and sometimes call, phase or schema_name, consumed
// once or replayed, some with agent: blocks.
func (g *gen) agentCassetteFixture() (cassette, fixture m) {
	var eps []any
	for i := range 2 + g.rnd.IntN(4) {
		// agent.claude (the default alias) answers no call on either engine
		// (conformance cassette-alias-episode-unplayed)
		h := g.pick("host.agent.decide", "host.agent.decide", "host.agent.ask", "host.agent.task", "host.agent.converse", "host.agent.search", "host.agent", "agent.claude")
		match := m{"handler": h}
		if g.chance(30) {
			match["call"] = g.pick("d1", "d0", "a1", "a2", "t1")
		}
		if g.chance(20) {
			match["phase"] = g.pick("idle", "asking", "decided", "failed")
		}
		if h == "host.agent.decide" && g.chance(15) {
			match["schema_name"] = g.pick("verdict.json", "other.json")
		}
		resp := g.askAnswer()
		if h == "host.agent.decide" {
			resp = g.decideAnswer()
		}
		ep := m{"id": "e" + string(rune('0'+i)), "match": match, "response": resp}
		if g.chance(40) {
			ep["replay"] = "any"
		}
		if g.chance(25) {
			ag := m{"verb": "decide", "agent": "rev", "model": "m", "prompt": "p", "response": `{"decision":"yes"}`}
			if g.chance(30) {
				ag["error"] = "agent: schema_invalid"
			}
			if g.chance(40) {
				ag["cost_usd"], ag["prompt_tokens"], ag["response_tokens"] = g.pick2(0.25, 0.5), 7, 2
			}
			ep["agent"] = ag
		}
		eps = append(eps, ep)
	}
	cassette = m{"kind": "host_cassette", "app_id": "gen", "match_on": []any{"handler"}, "episodes": eps}
	fixture = g.agentFixtureBase()
	fixture["host_cassette"] = "cassettes/c.yaml"
	if g.chance(15) {
		fixture["strict_cassette_coverage"] = true
	}
	return cassette, fixture
}

// agentRecordingFixture drives the legacy path with utterances a
// recording classifies, some into intents the state does not take or
// the story does not declare.
func (g *gen) agentRecordingFixture() (rec, fixture m) {
	type utter struct{ state, input string }
	var entries []any
	var said []utter
	// every utterance is recorded for every room the legacy path can
	// rest in (a miss is fatal upstream and hides the rest of the run)
	rooms := []string{"idle", "asking", "decided", "failed", "gone"}
	for i := range len(rooms) * (1 + g.rnd.IntN(3)) {
		st := rooms[i%len(rooms)]
		in := fmt.Sprintf("say %d", i/len(rooms))
		intent := g.pick(append(slices.Clone(agentIntents), "fly")...)
		e := m{"state": st, "input": in, "intent": m{"name": intent}}
		if intent == "pick" {
			e["intent"] = m{"name": "pick", "slots": m{"choice": g.pick("yes", "no")}}
		}
		if g.chance(60) {
			e["confidence"] = []any{1.0, 0.4, 0.95}[g.rnd.IntN(3)]
		}
		if g.chance(40) {
			e["majority_of"] = 1 + g.rnd.IntN(3)
		}
		entries = append(entries, e)
		said = append(said, utter{st, in})
	}
	rec = m{"kind": "recording", "app_id": "gen", "min_confidence": 0.5, "entries": entries}
	fixture = m{"test_kind": "flow", "app": "../app.yaml", "recording": "cassettes/rec.yaml", "initial_state": g.pick("idle", "decided", "failed")}
	var turns []any
	for range 2 + g.rnd.IntN(4) {
		if g.chance(40) {
			turns = append(turns, g.agentIntentTurn())
			continue
		}
		u := said[g.rnd.IntN(len(said))]
		in := u.input
		if g.chance(30) {
			in = "  SAY" + in[3:] + " "
		}
		t := m{"input": in}
		if g.chance(40) {
			t["expect_state"] = u.state
		}
		turns = append(turns, t)
	}
	fixture["turns"] = turns
	return rec, fixture
}

// agentFixtureBase is an orchestrator fixture with its turns.
func (g *gen) agentFixtureBase() m {
	f := m{"test_kind": "flow", "app": "../app.yaml", "use_orchestrator": true}
	if g.chance(70) {
		f["initial_state"] = g.pick("idle", "idle", "decided", "failed")
	}
	if g.chance(30) {
		// values of the declared types (a string where a guard compares
		// numbers is turn-fatal upstream, which ends the whole run)
		f["initial_world"] = []m{{"tries": 2}, {"decision": "yes"}, {"conf": 0.5}, {"ok": true}, {"verdict": m{"decision": "no"}}}[g.rnd.IntN(5)]
	}
	if g.chance(30) {
		f["expect_no_errors"] = g.chance(50)
	}
	if g.chance(20) {
		// a decision gate ends the turn instead of auto-advancing
		f["mode"] = "staged"
	}
	var turns []any
	for range 3 + g.rnd.IntN(6) {
		if g.chance(12) {
			// lets a background task finish (its answer binds then)
			turns = append(turns, m{"advance_clock": g.pick("2s", "10m")})
			continue
		}
		turns = append(turns, g.agentIntentTurn())
	}
	f["turns"] = turns
	return f
}

// agentIntentTurn is one explicit-intent turn with a few assertions on
// what the answers left.
func (g *gen) agentIntentTurn() m {
	in := g.pick("start", "start", "start", "retry", "retry", "look", "back", "pick", "done", "unsure")
	slots := m{}
	if in == "pick" && g.chance(80) {
		slots["choice"] = g.pick("yes", "no", "")
	}
	t := m{"intent": m{"name": in, "slots": slots}}
	if g.chance(35) {
		ew := m{}
		switch g.rnd.IntN(6) {
		case 5:
			// what the answers' meta.cost_usd charged (nothing, upstream)
			ew[g.pick("turn_cost_usd", "session_cost_usd")] = []any{0.0, 0.25, 0.5}[g.rnd.IntN(3)]
		case 0:
			ew["decision"] = g.pick("yes", "no", "")
		case 1:
			ew["conf"] = []any{0.9, 0.3, 1, 0, "0.7"}[g.rnd.IntN(5)]
		case 2:
			ew["note"] = g.pick("because", "", "plain")
		case 3:
			ew["last_error"] = g.pick("", "validator: session abandoned without successful submit", "agent transport down")
		default:
			ew["ok"] = g.chance(50)
		}
		t["expect_world"] = ew
	}
	if g.chance(20) {
		t["expect_state"] = g.pick("idle", "asking", "decided", "failed")
	}
	if g.chance(15) {
		t["expect_view_matches"] = g.pick("d=yes", "FAILED", "DECIDED", "e=agent", `\.000000`)
	}
	if g.chance(15) {
		t["world_override"] = []m{{"tries": 1}, {"decision": "no"}, {"conf": 1}, {"conf": 0.25}}[g.rnd.IntN(4)]
	}
	if g.chance(20) {
		// what the agent was asked: the call id, the rendered prompt and args
		hc := m{"handler": g.pick("host.agent.decide", "host.agent.ask", "host.agent.task")}
		switch g.rnd.IntN(4) {
		case 0:
			hc["args"] = m{"call": g.pick("d1", "d0", "a1")}
		case 1:
			hc["args"] = m{"prompt": g.pick("prompts/decide.md", "Decide now: 0", "Decide now: 1", "Why ?")}
		case 2:
			hc["args"] = m{"args": m{"tries": g.pick2(0, "1"), "prev": ""}}
		}
		if g.chance(50) {
			hc["times"] = g.rnd.IntN(3)
		}
		t["expect_host_calls"] = []any{hc}
	}
	if g.chance(10) {
		t["expect_events"] = []any{m{"kind": g.pick("harness.returned", "machine.gate_decided", "machine.transition", "world.update", "harness.dispatched")}}
	}
	return t
}
