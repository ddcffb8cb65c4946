package main

// The host kind (`gen write -kind host`): stories that call host
// namespaces from on_enter, arms and on_complete — synchronous calls and
// `background: true` jobs, with `id:` (plain and templated), args
// rendered from world and slots, binds of nested result paths and
// templates, on_error redirects, on_complete chains with a target, a
// clarification answered through host.jobs.answer_clarification, calls
// reached by prefix (host.git.status served by host.git) and through a
// host interface (iface.ticket.search). Their fixtures (host_fixture.go)
// feed every stub form the flow format has and assert what the calls
// left: expect_host_calls, expect_no_host_calls, expect_inbox,
// expect_jobs, expect_world, expect_state, expect_events.
//
// Two rules of the existing engine shape what is drawn, so that it loads
// and runs every story: an advance_clock must cover every pending job
// delay (a partial advance aborts its whole run), so job delays are at
// most 1s and every advance is at least 2s; and no room an on_complete or
// on_error lands in submits a job (a job submitted during the drain is
// a partial advance too), so only `waiting` and the `bg` arm submit.

import (
	"fmt"
	"path/filepath"
)

// writeHost writes n host stories, story i from seed+i;
// blocks rewrites their strings as block scalars (-blocks, blocks.go).
func writeHost(dir string, n int, seed uint64, blocks, bindings bool) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs := g.hostStory(fmt.Sprintf("genh-%d", seed+uint64(i)))
		if blocks {
			bg := newBlockGen(seed + uint64(i))
			for _, f := range fs {
				bg.apply(f.body)
			}
		}
		if bindings {
			fs = newBindGen(seed + uint64(i)).apply(fs)
		}
		if err := writeFiles(d, fs); err != nil {
			return err
		}
	}
	return nil
}

// hostCallIDs are the call ids a host story's effects carry (by_call
// keys on them); "r-{{ world.n }}" renders at dispatch.
var hostCallIDs = []string{"r1", "r2", "g1", "t1", "r-{{ world.n }}", "s-{{ slots.v }}"}

// hostStory draws one story and its fixtures.
func (g *gen) hostStory(id string) []agentFile {
	world := m{
		"n":           m{"type": "int", "default": 0},
		"s":           m{"type": "string", "default": ""},
		"out":         m{"type": "string", "default": ""},
		"res":         m{"type": "any", "default": m{}},
		"items":       m{"type": "any", "default": []any{}},
		"code":        m{"type": "any", "default": 0},
		"note":        m{"type": "string", "default": ""},
		"tag":         m{"type": "string", "default": g.pick("a", "b")},
		"last_job_id": m{"type": "string", "default": ""},
		"bg_job_id":   m{"type": "string", "default": ""},
		"status":      m{"type": "string", "default": ""},
	}
	if g.chance(50) {
		world["last_error"] = m{"type": "string", "default": ""}
	}
	intents := m{
		"run":  m{"description": "run"},
		"bg":   m{"description": "bg"},
		"look": m{"description": "look"},
		"back": m{"description": "back"},
		"fix":  m{"description": "fix"},
		"tag":  m{"description": "tag", "slots": m{"v": m{"type": "string"}}},
		"answer": m{"description": "answer", "slots": m{
			"answer": m{"type": "string"}, "job_id": m{"type": "string"}}},
	}
	used := map[string]bool{}
	states := m{
		"idle":    g.hostIdle(used),
		"work":    g.hostWork(),
		"waiting": g.hostWaiting(used),
		"done":    g.hostDone(),
		"failed":  g.hostFailed(),
	}
	// every room takes every intent (a rejection fails the turn, and
	// expect_no_errors the fixture, hiding what the calls did)
	for _, st := range states {
		on := st.(m)["on"].(m)
		for in := range intents {
			if on[in] == nil {
				on[in] = []any{m{"target": "."}}
			}
		}
	}
	app := m{
		"app": m{"id": id, "version": "0.1.0"},
		"hosts": []any{"host.run", "host.git", "host.git.status", "host.git.log", "host.git.diff", "host.git.fetch",
			"host.inbox.add", "host.agent.task",
			"host.local_files.ticket", "host.jobs.answer_clarification", "host.nope"},
		"host_interfaces": m{"ticket": m{
			"description": "tickets",
			"operations": m{
				"search": m{"input": m{"query": "string"}, "output": m{"results": "list"}},
				"get":    m{"input": m{"id": "string"}, "output": m{"ticket": "object"}},
			},
			"default": "host.local_files.ticket",
		}},
		"world":   world,
		"intents": intents,
		"root":    "idle",
		"states":  states,
	}
	files := []agentFile{{"app.yaml", app},
		{"schemas/s.json", []byte(`{"type":"object","properties":{"summary":{"type":"string"}}}` + "\n")}}
	for i := range 2 + g.rnd.IntN(2) {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.hostFixture(states)})
	}
	return files
}

// hostView shows what the calls left.
func (g *gen) hostView(tag string) any {
	switch g.rnd.IntN(4) {
	case 0:
		return tag + " n={{ world.n }} out={{ world.out }} code={{ world.code }}"
	case 1:
		return tag + " res={{ world.res }} items={{ world.items }}"
	case 2:
		return []any{m{"heading": tag}, m{"kv": m{"pairs": m{"out": "{{ world.out }}", "note": "{{ world.note }}", "status": "{{ world.status }}"}}}}
	default:
		// last_job_* live only in an on_complete chain
		return tag + " err={{ world.last_error }} job={{ world.status }} last={{ world.last_job_status }}"
	}
}

// hostSync is one synchronous call drawn from every namespace form.
func (g *gen) hostSync(redirect bool) m {
	var e m
	switch g.rnd.IntN(9) {
	case 0, 1:
		e = m{"invoke": "host.run", "with": m{"cmd": g.pick("echo {{ world.n }}", "ls {{ world.tag }}", "true", "echo {{ slots.v }}")},
			"bind": g.hostBinds("out", "stdout", "code", "exit_code", "res", "stdout_json.a.b")}
	case 2:
		e = m{"invoke": "host.git." + g.pick("status", "log", "diff"), "with": m{"ref": "{{ world.tag }}"},
			"bind": g.hostBinds("res", "branch", "items", "files", "out", "head.sha", "note", "files[0]")}
	case 3:
		e = m{"invoke": "host.inbox.add", "with": m{"title": "note {{ world.n }}", "severity": g.pick("info", "warn")},
			"bind": g.hostBinds("note", "id", "res", "ok")}
	case 4:
		e = m{"invoke": "iface.ticket." + g.pick("search", "get"), "with": m{"query": "{{ world.tag }}", "id": "T-{{ world.n }}"},
			"bind": g.hostBinds("items", "results", "res", "results[0]", "note", "results[1].id", "out", "ticket.title")}
	case 5:
		e = m{"invoke": "host.agent.task", "with": m{"prompt": "do {{ world.s }}", "args": m{"n": "{{ world.n }}"}, "acceptance": m{"schema": "schemas/s.json"}},
			"bind": g.hostBinds("out", "submitted.summary", "res", "submitted", "code", "ok")}
	case 6:
		e = m{"invoke": "host.nope", "with": m{"x": "{{ world.n }}"}, "bind": g.hostBinds("out", "v")}
	case 7:
		// template binds see result (the data) and world
		e = m{"invoke": "host.run", "with": m{"cmd": "cat"},
			"bind": m{"out": g.pick("{{ result.stdout }}-x", "{{ result }}", "{{ world.n }}:{{ result.exit_code }}")}}
	default:
		e = m{"invoke": "host.git", "with": m{"op": g.pick("log", "status", ""), "ref": "main"},
			"bind": g.hostBinds("res", "branch", "out", "head.sha")}
	}
	if g.chance(50) {
		e["id"] = g.pick(hostCallIDs...)
	}
	if g.chance(20) {
		e["with"].(m)["call"] = "w1"
	}
	if redirect && g.chance(45) {
		e["on_error"] = g.pick("failed", "failed", "done", ".")
	}
	if g.chance(10) {
		e["when"] = g.pick("world.n > 0", "world.out == ''")
	}
	return e
}

// hostBinds binds some of the world key/result path pairs given.
func (g *gen) hostBinds(kv ...string) m {
	b := m{}
	for i := 0; i+1 < len(kv); i += 2 {
		if g.chance(60) {
			b[kv[i]] = kv[i+1]
		}
	}
	if len(b) == 0 {
		b[kv[0]] = kv[1]
	}
	return b
}

// hostJob is one background call with its on_complete chain.
// Each job of a story calls its own namespace, whose stub's delay no
// other namespace's shares (hostStub), and a turn submits one job: jobs
// ending in one advance end in a random order upstream, whatever their
// delays. used holds the namespaces taken; nil when all are.
func (g *gen) hostJob(used map[string]bool) m {
	var free []string
	for _, ns := range []string{"host.run", "host.agent.task", "host.git.fetch"} {
		if !used[ns] {
			free = append(free, ns)
		}
	}
	if len(free) == 0 {
		return nil
	}
	ns := g.pick(free...)
	used[ns] = true
	var e m
	switch ns {
	case "host.run":
		e = m{"invoke": "host.run", "with": m{"cmd": "sleep {{ world.n }}"}}
	case "host.agent.task":
		e = m{"invoke": "host.agent.task", "with": m{"prompt": "bg {{ world.tag }}", "acceptance": m{"schema": "schemas/s.json"}}}
	default:
		e = m{"invoke": "host.git.fetch", "with": m{"ref": "{{ world.tag }}"}}
	}
	e["background"] = true
	switch g.rnd.IntN(3) {
	case 0:
		e["bind"] = m{"last_job_id": "job_id"}
	case 1:
		e["bind"] = m{"bg_job_id": "job_id"}
	}
	if g.chance(40) {
		e["id"] = g.pick("j1", "r1", "t1")
	}
	if g.chance(85) {
		var oc []any
		oc = append(oc, m{"set": m{"status": g.pick("{{ world.last_job_status }}", "got {{ world.last_job_result.stdout }}", "{{ world.last_job_result }}")}})
		if g.chance(40) {
			oc = append(oc, m{"increment": m{"n": 1}})
		}
		if g.chance(40) {
			oc = append(oc, m{"set": m{"out": g.pick("{{ world.last_job_result.submitted.summary }}", "{{ world.last_job_result.stdout }}",
				// a clarification's answer is not in the result upstream
				"{{ world.last_job_result.answer }}")}})
		}
		if g.chance(30) {
			oc = append(oc, g.hostSync(false))
		}
		if g.chance(60) {
			t := m{"target": g.pick("done", "failed", "idle")}
			if g.chance(40) {
				t["when"] = g.pick("world.last_job_status == 'done'", "world.last_job_status == 'failed'")
			}
			oc = append(oc, t)
			if g.chance(30) {
				oc = append(oc, m{"target": "idle"})
			}
		}
		e["on_complete"] = oc
	}
	if g.chance(25) {
		e["on_error"] = "failed"
	}
	return e
}

func (g *gen) hostCalls(n int, redirect bool) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		if g.chance(20) {
			out = append(out, m{"set": m{"s": g.pick("{{ world.out }}", "x{{ world.n }}")}})
		}
		out = append(out, g.hostSync(redirect))
	}
	return out
}

func (g *gen) hostIdle(used map[string]bool) m {
	st := m{"view": g.hostView("IDLE")}
	if g.chance(30) {
		st["on_enter"] = g.hostCalls(1, false)
	}
	run := m{"target": "work"}
	if g.chance(40) {
		run["effects"] = g.hostCalls(2, true)
	}
	bg := m{"target": "waiting"}
	if g.chance(30) {
		// a job of its own, staying here: one job per turn (jobs ending
		// in one advance end in a random order upstream)
		bg = m{"target": ".", "effects": []any{g.hostJob(used)}}
	}
	look := m{"target": "."}
	if g.chance(40) {
		look["effects"] = g.hostCalls(1, true)
	}
	st["on"] = m{
		"run":  []any{run},
		"bg":   []any{bg},
		"look": []any{look},
		"tag":  []any{m{"target": ".", "effects": []any{m{"set": m{"tag": "{{ slots.v }}"}}, g.hostSync(false)}}},
		"fix":  []any{m{"target": ".", "effects": []any{m{"set": m{"out": "", "n": "{{ world.n + 1 }}"}}}}},
	}
	return st
}

func (g *gen) hostWork() m {
	enter := g.hostCalls(3, true)
	if g.chance(30) {
		enter = append(enter, m{"emit_intent": "back", "when": g.pick("world.out == 'R'", "world.code == 1")})
	}
	return m{
		"view":     g.hostView("WORK"),
		"on_enter": enter,
		"on": m{
			"back": []any{m{"target": "idle"}},
			"run":  []any{m{"target": "work"}},
			"look": []any{m{"target": ".", "effects": g.hostCalls(1, true)}},
			"bg":   []any{m{"target": "waiting"}},
			"fix":  []any{m{"target": "idle"}},
		},
	}
}

func (g *gen) hostWaiting(used map[string]bool) m {
	enter := []any{g.hostJob(used)}
	if g.chance(30) {
		enter = append(enter, g.hostSync(false))
	}
	ans := m{"invoke": "host.jobs.answer_clarification", "with": m{
		"job_id": g.pick("{{ world.last_job_id }}", "{{ slots.job_id }}", "{{ world.bg_job_id }}"),
		"answer": "{{ slots.answer }}"}}
	if g.chance(50) {
		ans["bind"] = m{"note": g.pick("answered", "job_id")}
	}
	if g.chance(30) {
		ans["on_error"] = "failed"
	}
	return m{
		"view":     g.hostView("WAIT"),
		"on_enter": enter,
		"on": m{
			"answer": []any{m{"target": ".", "effects": []any{ans}}},
			"look":   []any{m{"target": "."}},
			"back":   []any{m{"target": "idle"}},
			"run":    []any{m{"target": "work"}},
			"fix":    []any{m{"target": "done"}},
		},
	}
}

func (g *gen) hostDone() m {
	st := m{"view": g.hostView("DONE"), "on": m{
		"back": []any{m{"target": "idle"}},
		"run":  []any{m{"target": "work"}},
		"look": []any{m{"target": "."}},
	}}
	if g.chance(40) {
		st["on_enter"] = g.hostCalls(1, false)
	}
	return st
}

func (g *gen) hostFailed() m {
	return m{"view": g.hostView("FAILED"), "on": m{
		"back": []any{m{"target": "idle"}},
		"fix":  []any{m{"target": "idle", "effects": []any{m{"set": m{"s": "fixed {{ world.last_error }}"}}}}},
		"run":  []any{m{"target": "work"}},
		"look": []any{m{"target": "."}},
	}}
}
