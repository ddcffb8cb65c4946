package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// writeFiles writes a story's files under d: strings as they are, a list
// of documents as a YAML stream, other values as YAML.
func writeFiles(d string, files []agentFile) error {
	for _, f := range files {
		b, err := fileBytes(f)
		if err != nil {
			return fmt.Errorf("story %s: %w", d, err)
		}
		p := filepath.Join(d, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(filepath.ToSlash(f.name), "bin/") {
			mode = 0o755 // a stand-in program (bindings.go)
		}
		if err := os.WriteFile(p, b, mode); err != nil {
			return err
		}
	}
	return nil
}

// fileBytes is f's body as writeFiles writes it.
func fileBytes(f agentFile) ([]byte, error) {
	switch v := f.body.(type) {
	case string:
		return []byte(v), nil
	case []byte:
		return v, nil
	case []m:
		var parts []string
		for _, doc := range v {
			p, err := yaml.Marshal(doc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.name, err)
			}
			parts = append(parts, string(p))
		}
		return []byte(strings.Join(parts, "---\n")), nil
	}
	b, err := yaml.Marshal(f.body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	return b, nil
}

// starRun is one running state of a starlark story: its script's
// outputs and what the turn that enters it leaves in the world.
type starRun struct {
	state  string
	wants  map[string]starVal
	binds  map[string]string // world key -> result path
	onErr  bool
	intent string
	sure   bool // the call cannot fail: its state and binds are known
}

// starStory draws one story with its scripts, cassettes and fixtures.
func (g *gen) starStory(id string) []agentFile {
	var files []agentFile
	intents := m{"back": m{"title": "back"}, "next": m{"title": "next"},
		"put": m{"title": "put", "slots": m{"v": m{"type": "string"}}}}
	states := m{}
	idleOn := m{"put": []any{m{"target": ".", "effects": []any{m{"set": m{"s": "{{ slots.v }}"}}}}}}
	var runs []starRun
	for i := range 1 + g.rnd.IntN(3) {
		name := fmt.Sprintf("run%d", i+1)
		in := fmt.Sprintf("go%d", i+1)
		intents[in] = m{"title": in}
		script, sidecar, outs, wants, sureScript := g.starScript()
		inputs, sureIn := g.starInputs()
		sp := fmt.Sprintf("scripts/s%d.star", i+1)
		files = append(files, agentFile{sp, script}, agentFile{sp + ".yaml", sidecar})
		binds := m{}
		rb := map[string]string{}
		for j, o := range outs {
			if j >= 3 {
				break
			}
			key := fmt.Sprintf("r%d", j+1)
			path := o
			if g.chance(15) {
				path = g.pick(o+".k", o+".0", "__http_exchanges", "__inspections", "missing")
			}
			binds[key] = path
			rb[key] = path
		}
		call := m{"invoke": "host.starlark.run", "id": fmt.Sprintf("s%d", i+1),
			"with": m{"script": sp, "inputs": inputs}}
		if len(binds) > 0 {
			call["bind"] = binds
		}
		if g.withKnown && g.chance(20) {
			call["with"].(m)["world"] = m{"s": "overlaid", "n": 5}
		}
		onErr := g.chance(60)
		if onErr {
			call["on_error"] = g.pick("failed", "failed", ".")
		}
		st := m{"view": g.pick(
			name+" r1={{ world.r1 }} r2={{ world.r2 }} e={{ world.last_error }}",
			name+" {{ world.r1|default:\"-\" }} / {{ world.r3 }}",
			name+" s={{ world.s }} r1={{ world.r1 }}"),
			"on": m{"back": []any{m{"target": "idle"}}, "next": []any{m{"target": "done"}}}}
		arm := m{"target": name}
		if g.chance(25) {
			arm["effects"] = []any{call} // on the arc instead of the room's on_enter
		} else {
			st["on_enter"] = []any{call}
		}
		idleOn[in] = []any{arm}
		states[name] = st
		runs = append(runs, starRun{state: name, wants: wants, binds: rb, onErr: onErr, intent: in, sure: sureScript && sureIn})
	}
	states["idle"] = m{"view": "IDLE s={{ world.s }} r1={{ world.r1 }} e={{ world.last_error }}", "on": idleOn}
	states["done"] = m{"view": "DONE {{ world.r2 }}", "on": m{"back": []any{m{"target": "idle"}}}}
	states["failed"] = m{"view": "FAILED {{ world.last_error }}", "on": m{"back": []any{m{"target": "idle"}}, "next": []any{m{"target": "done"}}}}
	world := m{
		"s":          m{"type": "str", "default": "héllo wörld"},
		"f":          m{"type": "number", "default": 2.5},
		"b":          m{"type": "bool", "default": true},
		"l":          m{"type": "list", "default": []any{"x", "日本"}},
		"m":          m{"type": "any", "default": m{"k": "v"}},
		"n":          m{"type": "int", "default": 0},
		"r1":         m{"type": "any"},
		"r2":         m{"type": "any"},
		"r3":         m{"type": "any"},
		"last_error": m{"type": "str", "default": ""},
	}
	app := m{"app": m{"id": id, "version": "0.1.0"}, "hosts": []any{"host.starlark.run"},
		"world": world, "intents": intents, "root": "idle", "states": states}
	files = append(files, agentFile{"app.yaml", app})
	if g.withKnown {
		// ctx.fs finds what the working directory lacks in the story
		// directory, where upstream fails (docs/compat/hosts.md)
		files = append(files, agentFile{"notes.txt", "a note\n"}, agentFile{"docs/a.md", "# a\n"})
	}
	return append(files, g.starFixtures(runs)...)
}

// starHTTPCassette draws the exchanges the scripts' calls may meet; some
// are left out (a miss), some doubled (played once each).
func (g *gen) starHTTPCassette() m {
	ex := func(method, url string, status int, body string) m {
		match := m{"method": method, "url": url}
		if url[0] == '/' {
			match = m{"method": method, "url_pattern": url}
		}
		return m{"match": match, "response": m{"status": status, "headers": m{"Content-Type": "application/json"}, "body": body}}
	}
	all := []any{
		ex("GET", "https://api.test/a", 200, `{"id": 1, "name": "é", "big": 12345678901234567890}`),
		ex("GET", "https://api.test/a", 200, `{"id": 2}`),
		ex("GET", "https://api.test/b", 404, `{"error": "not found"}`),
		ex("GET", "https://api.test/j", 200, `{"k": [1, 2.5, null, true, "日本"], "n": {"x": -0.5}}`),
		ex("GET", "/n/[0-9]+$", 200, `{"i": 7}`),
		ex("POST", "https://api.test/p", 201, `made`),
		ex("GET", "https://api.test/e", []int{200, 500, 302}[g.rnd.IntN(3)], `plain`),
		ex("GET", "https://api.test/j", 200, `not json`),
	}
	var keep []any
	for _, e := range all {
		if g.chance(85) {
			keep = append(keep, e)
		}
	}
	return m{"kind": "http_cassette", "exchanges": keep}
}

// starInspectCassette draws the fs and probe answers.
func (g *gen) starInspectCassette() m {
	all := []any{
		m{"op": "read", "target": "notes.txt", "exit": 0, "out": "recorded note"},
		m{"op": "exists", "target": "notes.txt", "exit": 0, "out": "true"},
		m{"op": "exists", "target": "gone", "exit": 1, "out": "false"},
		m{"op": "glob", "target": "*.md", "exit": 0, "out": "a.md\nb.md\n"},
		m{"op": "glob", "target": "docs/*.md", "exit": 0, "out": ""},
		m{"op": "probe", "target": "lint", "exit": 2, "out": "2 problems"},
	}
	var keep []any
	for _, e := range all {
		if g.chance(80) {
			keep = append(keep, e)
		}
	}
	return m{"kind": "inspect_cassette", "interactions": keep}
}

// starAnswer is a stubbed host.starlark.run envelope.
func (g *gen) starAnswer() m {
	switch g.rnd.IntN(5) {
	case 0:
		return m{"error": "host.starlark.run: starlark: main(ctx): fail: stubbed"}
	case 1:
		return m{"infra_error": "starlark down"}
	default:
		return m{"data": m{"o1": g.pick("x", "日本"), "o2": m{"k": []any{1, 2.5}}, "o3": nil}}
	}
}

// starFixtures draws the story's fixtures.
func (g *gen) starFixtures(runs []starRun) []agentFile {
	real := g.starFixtureBase(runs, true)
	real["starlark_http_cassette"] = "cassettes/http.yaml"
	switch g.rnd.IntN(4) {
	case 0:
		real["starlark_inspect_cassette"] = "cassettes/inspect.yaml"
		real["host_handlers"] = m{"host.run": m{"data": m{"ok": true}}}
	case 1:
		real["host_bindings"] = m{"host.artifacts_dir": "host.artifacts_dir"}
	}
	files := []agentFile{
		{"flows/cassettes/http.yaml", g.starHTTPCassette()},
		{"flows/cassettes/inspect.yaml", g.starInspectCassette()},
		{"flows/h.yaml", real},
	}
	var eps []any
	for i, r := range runs {
		for k := range 1 + g.rnd.IntN(2) {
			ep := m{"id": fmt.Sprintf("e%d%d", i, k), "match": m{"handler": "host.starlark.run", "call": "s" + r.state[3:]}, "response": g.starAnswer()}
			if g.chance(30) {
				ep["replay"] = "any"
			}
			eps = append(eps, ep)
		}
	}
	cas := g.starFixtureBase(runs, false)
	cas["host_cassette"] = "cassettes/host.yaml"
	if g.chance(15) {
		cas["strict_cassette_coverage"] = true
	}
	stub := g.starAnswer()
	if g.chance(30) {
		stub["by_call"] = m{"s1": g.starAnswer()}
	}
	st := g.starFixtureBase(runs, false)
	st["host_handlers"] = m{"host.starlark.run": stub}
	return append(files,
		agentFile{"flows/cassettes/host.yaml", m{"kind": "host_cassette", "app_id": "gen", "episodes": eps}},
		agentFile{"flows/c.yaml", cas}, agentFile{"flows/s.yaml", st})
}

// starFixtureBase is a fixture with its turns: the run states entered
// and left, assertions on what their scripts bound (when the scripts run:
// real; otherwise a stub or host cassette answers for them).
func (g *gen) starFixtureBase(runs []starRun, real bool) m {
	f := m{"test_kind": "flow", "app": "../app.yaml", "initial_state": "idle"}
	if g.chance(30) {
		f["initial_world"] = []m{{"s": "seeded"}, {"f": 0.5}, {"r1": "pre"}, {"l": []any{}}}[g.rnd.IntN(4)]
	}
	if g.chance(20) {
		f["expect_no_errors"] = g.chance(50)
	}
	var turns []any
	at := "idle"
	for range 3 + g.rnd.IntN(5) {
		if at != "idle" {
			in := g.pick("back", "back", "next")
			if at == "done" {
				in = g.pick("back", "go1")
			}
			t := m{"intent": m{"name": in, "slots": m{}}}
			switch in {
			case "go1":
				t["expect_error"] = m{"code": "INTENT_NOT_ALLOWED_IN_STATE"}
			case "next":
				at = "done"
			default:
				at = "idle"
			}
			turns = append(turns, t)
			continue
		}
		if g.chance(15) {
			turns = append(turns, m{"intent": m{"name": "put", "slots": m{"v": g.pick("新", "x y", "")}}})
			continue
		}
		r := runs[g.rnd.IntN(len(runs))]
		r.sure = r.sure && real
		t := m{"intent": m{"name": r.intent, "slots": m{}}}
		if r.sure && g.chance(60) {
			t["expect_state"] = r.state
		}
		if ew := g.starExpectWorld(r); ew != nil && r.sure && g.chance(70) {
			t["expect_world"] = ew
		}
		if g.chance(25) {
			hc := m{"handler": "host.starlark.run", "args": m{"call": "s" + r.state[3:]}}
			if g.chance(50) {
				hc["times"] = 1
			}
			t["expect_host_calls"] = []any{hc}
		}
		if r.sure && g.chance(20) {
			t["expect_view_matches"] = r.state
		} else if g.chance(5) {
			t["expect_view_matches"] = g.pick("FAILED", "日本", "expected")
		}
		turns = append(turns, t)
		at = r.state
	}
	f["turns"] = turns
	return f
}

// starExpectWorld is what a run's binds should leave, from the values
// its script returns when they are known in advance.
func (g *gen) starExpectWorld(r starRun) m {
	if r.wants == nil {
		return nil
	}
	ew := m{}
	for key, path := range r.binds {
		w, ok := r.wants[path]
		if !ok || !w.known {
			continue
		}
		if f, isF := w.want.(float64); isF && (math.IsNaN(f) || math.IsInf(f, 0)) {
			continue
		}
		ew[key] = w.want
	}
	if len(ew) == 0 {
		return nil
	}
	return ew
}
