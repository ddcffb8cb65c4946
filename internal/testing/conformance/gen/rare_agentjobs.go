package main

import (
	"maps"
	"slices"
)

// agentJobs (part of -rare) draws background jobs whose work is an agent
// call, which no other draw makes: an intent aj on one to three
// top-level states whose arm submits host.agent.ask, decide or task in
// the background (a call id, a persona, at times an effect agent: alias
// and a bind at submission), with on_complete chains reading
// last_job_status, last_job_result.submitted and .meta.cost_usd (which a
// failed job leaves unset: the chain's set fails), the cost keys, and a
// foreground host.agent.converse; a view prints them. The fixture answers
// the calls one of three ways: host_handlers stubs (data with the meta an
// agent transport reports, a domain or infra error, by_call), a host
// cassette (episodes per verb, consumed once or replay: any, agent:
// blocks with cost_usd) in a second fixture flows/j.yaml whose cassette
// also answers the story's other handlers as its stubs do (files returns
// both, and a task's acceptance schema), or nothing (the agent layer's
// "no handler registered"). Fixture turns send aj with a clock advance
// that lands the job, asserting at times that no cost was charged (a
// stub's or an episode's meta is data, conformance
// agent-cost-stub-not-folded).
//
// Every delay is 1s and no cassette episode answers a foreground call (an
// episode's delay sleeps on the fake clock upstream, where a foreground
// call then never returns); arms land on "." so no job is submitted in a
// clock drain. The legacy path gets the story and the aj turns only.
func (x *rareGen) agentJobs(app, kid, fx m) (files map[string]any) {
	states := app["states"].(m)
	var sites []string
	for _, k := range []string{"s0", "s1", "s2", "s3"} {
		if st, ok := states[k].(m); ok && st["terminal"] != true && (len(sites) == 0 || x.chance(50)) {
			sites = append(sites, k)
		}
	}
	if len(sites) == 0 {
		return nil
	}
	hosts := asList(app["hosts"])
	for _, h := range []string{"host.agent.ask", "host.agent.decide", "host.agent.task", "host.agent.converse"} {
		if !slices.Contains(hosts, any(h)) {
			hosts = append(hosts, h)
		}
	}
	app["hosts"] = hosts
	if app["agents"] == nil {
		app["agents"] = m{"rev": m{"model": "claude-haiku-4-5", "system_prompt": "You review."}}
	}
	w := app["world"].(m)
	w["ja"] = m{"type": "string", "default": ""}
	w["js"] = m{"type": "string", "default": ""}
	w["jc"] = m{"default": ""}
	app["intents"].(m)["aj"] = m{"description": "aj"}
	verbs := map[string]bool{}
	for _, k := range sites {
		st := states[k].(m)
		on, _ := st["on"].(m)
		if on == nil {
			on = m{}
			st["on"] = on
		}
		v := x.pick("ask", "ask", "decide", "task")
		verbs[v] = true
		on["aj"] = []any{m{"target": ".", "effects": []any{x.agentJob(v)}}}
		if st["view"] == nil || x.chance(40) {
			st["view"] = "J " + k + " ja={{ world.ja }} js={{ world.js }} jc={{ world.jc }} t={{ world.turn_cost_usd }} s={{ world.session_cost_usd }} e={{ world.last_error }}"
		}
	}
	files = map[string]any{}
	if verbs["task"] {
		files["schemas/j.json"] = `{"type":"object","properties":{"answer":{"type":"string"}}}` + "\n"
	}
	if x.legacy {
		x.ajTurns(fx)
		return files
	}
	hh := fx["host_handlers"].(m)
	mode := x.rnd.IntN(3)
	if mode == 1 && !cassetteSafe(hh, app, kid) {
		mode = 0
	}
	switch mode {
	case 0:
		for _, v := range slices.Sorted(maps.Keys(verbs)) {
			st := x.agentAnswer()
			st["delay"] = "1s"
			if x.chance(30) {
				st["by_call"] = m{"j1": x.agentAnswer()}
			}
			hh["host.agent."+v] = st
		}
		hh["host.agent.converse"] = x.agentAnswer()
	case 1:
		var eps []any
		for _, v := range slices.Sorted(maps.Keys(verbs)) {
			for i := range 1 + x.rnd.IntN(2) {
				match := m{"handler": "host.agent." + v}
				if x.chance(30) {
					match["call"] = x.pick("j1", "j2")
				}
				ep := m{"id": v + string(rune('0'+i)), "match": match, "response": x.agentAnswer(), "delay": "1s"}
				if x.chance(50) {
					ep["replay"] = "any"
				}
				if x.chance(40) {
					ep["agent"] = m{"verb": v, "agent": "rev", "model": "m1", "cost_usd": []any{0.25, 1}[x.rnd.IntN(2)], "prompt_tokens": 3, "response_tokens": 4, "response": `{"answer":"A"}`}
				}
				eps = append(eps, ep)
			}
		}
		if x.chance(60) {
			hh["host.agent.converse"] = x.agentAnswer()
		}
		x.ajTurns(fx)
		// a second fixture answers every handler from the cassette
		// (upstream refuses host_cassette beside host_handlers)
		jf := maps.Clone(fx)
		delete(jf, "host_handlers")
		jf["host_cassette"] = "cassettes/j.yaml"
		files["flows/j.yaml"] = jf
		files["flows/cassettes/j.yaml"] = m{"kind": "host_cassette", "app_id": "gen", "match_on": []any{"handler"}, "episodes": append(eps, stubEpisodes(hh)...)}
		return files
	}
	x.ajTurns(fx)
	return files
}

// stubEpisodes are host_handlers stubs as cassette episodes played any
// number of times: a by_call envelope as an episode matching the call
// before the stub's own, each with the stub's delay.
func stubEpisodes(hh m) []any {
	var eps []any
	for _, name := range sortedKeys(hh) {
		st := hh[name].(m)
		add := func(id string, match, env m) {
			resp := m{}
			for _, k := range []string{"data", "error", "infra_error"} {
				if v, ok := env[k]; ok {
					resp[k] = v
				}
			}
			ep := m{"id": id, "match": match, "replay": "any", "response": resp}
			if d, ok := st["delay"]; ok {
				ep["delay"] = d
			}
			eps = append(eps, ep)
		}
		bc, _ := st["by_call"].(m)
		for _, c := range sortedKeys(bc) {
			add(name+"@"+c, m{"handler": name, "call": c}, bc[c].(m))
		}
		add(name, m{"handler": name}, st)
	}
	return eps
}

// cassetteSafe reports whether the stubs can become cassette episodes: no
// stub form an episode lacks, and no stub with a delay whose handler is
// called in the foreground anywhere (an episode's delay sleeps on the
// fake clock upstream, and a foreground call then never returns).
func cassetteSafe(hh, app, kid m) bool {
	for _, name := range sortedKeys(hh) {
		st, ok := hh[name].(m)
		if !ok || st["by_op"] != nil || st["request_clarification"] != nil {
			return false
		}
		if d, _ := st["delay"].(string); d != "" && d != "0s" && (callsInForeground(app, name) || callsInForeground(kid, name)) {
			return false
		}
	}
	return true
}

// callsInForeground reports whether an effect anywhere in v invokes name
// without background: true.
func callsInForeground(v any, name string) bool {
	switch t := v.(type) {
	case m:
		if t["invoke"] == name && t["background"] != true {
			return true
		}
		for _, k := range sortedKeys(t) {
			if callsInForeground(t[k], name) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if callsInForeground(e, name) {
				return true
			}
		}
	}
	return false
}

// agentJob is the background agent call an aj arm submits.
func (x *rareGen) agentJob(verb string) m {
	with := m{"prompt": x.pick("do {{ world.n }}", "bg {{ world.s }}")}
	if verb == "task" || x.chance(60) {
		with["agent"] = "rev"
	}
	if verb == "task" {
		with["acceptance"] = m{"schema": "schemas/j.json"}
	}
	e := m{"invoke": "host.agent." + verb, "id": x.pick("j1", "j1", "j2"), "background": true, "with": with}
	if x.chance(15) {
		e["agent"] = x.pick("agent.claude", "agent.nope")
	}
	switch x.rnd.IntN(4) {
	case 0:
		e["bind"] = m{"ja": "submitted.answer"}
	case 1:
		e["bind"] = m{"last_job_id": "job_id"}
	}
	var chain []any
	if x.chance(70) {
		chain = append(chain, m{"set": m{"js": "{{ world.last_job_status }}"}})
	}
	for range 1 + x.rnd.IntN(3) {
		switch x.rnd.IntN(6) {
		case 0:
			chain = append(chain, m{"set": m{"ja": "{{ world.last_job_result.submitted.answer }}"}})
		case 1:
			chain = append(chain, m{"set": m{"jc": "{{ world.last_job_result.meta.cost_usd }}"}})
		case 2:
			chain = append(chain, m{"set": m{"jc": x.pick("{{ world.turn_cost_usd }}", "{{ world.session_cost_usd + 1 }}")}})
		case 3:
			c := m{"invoke": "host.agent.converse", "id": "c1", "with": m{"prompt": "more {{ world.js }}", "agent": "rev"}, "bind": m{"ja": x.pick("answer", "submitted.answer")}}
			if x.chance(40) {
				c["on_error"] = "."
			}
			chain = append(chain, c)
		case 4:
			chain = append(chain, m{"say": "job {{ world.last_job_status }} t={{ world.turn_cost_usd }}"})
		default:
			if t := x.aim(); t != "" {
				chain = append(chain, m{"target": t, "when": x.pick("world.last_job_status == 'done'", "world.js == 'failed'")})
			}
		}
	}
	if len(chain) > 0 {
		e["on_complete"] = chain
	}
	return e
}

// agentAnswer is one envelope an agent call may get from a stub or an
// episode: a submission with the meta an agent transport reports, a
// domain error (with data at times) or an infra error.
func (x *rareGen) agentAnswer() m {
	switch x.rnd.IntN(6) {
	case 0:
		return m{"error": "agent refused"}
	case 1:
		return m{"infra_error": "agent gone"}
	case 2:
		return m{"error": "low", "data": m{"ok": false, "submitted": m{"answer": "L"}, "meta": m{"cost_usd": 0.5}}}
	}
	d := m{"ok": true, "exit_code": 0, "submitted": m{"answer": x.pick("A", "", "42")}, "answer": "said"}
	if x.chance(70) {
		d["meta"] = m{"cost_usd": []any{0.25, 0.5, 0, 1, "0.1"}[x.rnd.IntN(5)], "usage": m{"input_tokens": 5, "output_tokens": 3}}
	}
	return m{"data": d}
}

// ajTurns inserts two to four turns sending aj; on the orchestrator path
// each advances the clock too, which lands the job in the same turn (one
// that takes no fake time, as a call no handler answers, lands at a
// random point upstream otherwise), at times asserting the cost keys and
// the job's status.
func (x *rareGen) ajTurns(fx m) {
	turns := asList(fx["turns"])
	for range 2 + x.rnd.IntN(3) {
		t := m{"intent": m{"name": "aj"}}
		if !x.legacy {
			t["advance_clock"] = "5m"
			switch x.rnd.IntN(4) {
			case 0:
				t["expect_world"] = m{x.pick("turn_cost_usd", "session_cost_usd"): 0.0}
			case 1:
				t["expect_world"] = m{"js": x.pick("done", "failed")}
			case 2:
				t["expect_view_matches"] = x.pick("t=0.000000 s=0.000000", "js=done", "ja=A")
			}
		}
		turns = slices.Insert(turns, x.rnd.IntN(len(turns)+1), any(t))
	}
	fx["turns"] = turns
}
