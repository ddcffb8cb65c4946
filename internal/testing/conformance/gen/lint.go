package main

// The lint kind (`gen write -kind lint`): load-time verdicts. Each story
// is a small valid story (leaves, a compound, a parallel state, intents
// with slots, a typed world, typed views, agents, and by chance
// agent_plugins, providers, selection, an include: file, an imported
// child, exits, an interface) plus zero, one or two mistakes drawn from
// story-format.md §9 (lint_mistakes.go) and as often a near-miss: the
// neighbour of a check that upstream accepts (§10). mistake.txt names
// what was drawn, each with the verdict the catalogue gives (refuse or
// load). One flow fixture passes whenever the story loads, so `test
// flows` shows the load verdict; compare `validate` exit codes too.

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// writeLint writes n lint stories, story i from seed+i.
func writeLint(dir string, n int, seed uint64) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.lintStory(fmt.Sprintf("genl-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// lintStory is one story being drawn: its manifest, side files and
// what was done to it.
type lintStory struct {
	app   m
	files map[string]any // path -> body (m or string) beside app.yaml
	tail  string         // raw YAML appended to app.yaml (duplicate keys)
	kid   bool           // imports ./kid as kid
	incl  bool           // include: rooms/*.yaml, rooms/extra.yaml
	drawn []string       // "refuse NAME" / "load NAME"
}

// state returns the state at a dotted path of the story's own states.
func (s *lintStory) state(path string) m {
	cur := s.app["states"].(m)
	var st m
	for _, p := range strings.Split(path, ".") {
		st = cur[p].(m)
		if ch, ok := st["states"].(m); ok {
			cur = ch
		}
	}
	return st
}

// on returns the arms of intent in state path, creating them.
func (s *lintStory) on(path, intent string) []any {
	st := s.state(path)
	on, ok := st["on"].(m)
	if !ok {
		on = m{}
		st["on"] = on
	}
	l, _ := on[intent].([]any)
	return l
}

// setOn replaces the arms of intent in state path.
func (s *lintStory) setOn(path, intent string, arms ...any) {
	s.on(path, intent)
	s.state(path)["on"].(m)[intent] = arms
}

// addEnter appends effects to a state's on_enter.
func (s *lintStory) addEnter(path string, effs ...any) {
	st := s.state(path)
	l, _ := st["on_enter"].([]any)
	st["on_enter"] = append(l, effs...)
}

// lintStory draws the valid story, then its mistakes and near-miss, and
// its fixture.
func (g *gen) lintStory(id string) []agentFile {
	s := g.lintClean(id, g.chance(40), g.chance(35))
	// mistakes: none (two in five), one, or two; near-misses mostly
	// where no mistake hides them (one or two), sometimes beside one.
	// Near-misses first: a mistake drawn after one is not undone by it.
	nm := int(g.pick("0", "0", "1", "1", "2")[0] - '0')
	nn := 0
	switch {
	case nm == 0:
		nn = 1 + g.rnd.IntN(2)
	case g.chance(30):
		nn = 1
	}
	for range nn {
		nr := lintNearMisses[g.rnd.IntN(len(lintNearMisses))]
		if nr.apply(g, s) {
			s.drawn = append(s.drawn, "load "+nr.name)
		}
	}
	for range nm {
		mk := lintMistakes[g.rnd.IntN(len(lintMistakes))]
		if mk.apply(g, s) {
			s.drawn = append(s.drawn, "refuse "+mk.name)
		}
	}
	return s.out()
}

// lintClean draws the valid story, with an include: file and an
// imported child when incl and kid say so.
func (g *gen) lintClean(id string, incl, kid bool) *lintStory {
	s := &lintStory{files: map[string]any{
		"schemas/verdict.json": `{"type":"object","required":["decision"],"properties":{"decision":{"type":"string"}}}` + "\n",
	}}
	s.app = g.lintBase(id)
	if incl {
		g.lintInclude(s)
	}
	if kid {
		g.lintKid(s)
	}
	if g.chance(40) {
		s.app["agent_plugins"] = m{"agent.local": m{"plugin": "subprocess", "command": "echo", "args": []any{"hi"}}}
	}
	if g.chance(25) {
		s.app["providers"] = m{"fast": m{"model": "claude-haiku-4-5", "effort": g.pick("low", "high")}}
		s.app["agents"].(m)["rev"].(m)["provider"] = "fast"
	}
	if g.chance(25) {
		s.app["exits"] = m{"out": m{"description": "leave"}}
		s.setOn("done", "go", m{"target": "@exit:out"})
	}
	return s
}

// out is the story's files: side files, app.yaml, the fixture and
// mistake.txt naming what was drawn.
func (s *lintStory) out() []agentFile {
	var files []agentFile
	for _, k := range sortedKeys(s.files) {
		files = append(files, agentFile{k, s.files[k]})
	}
	files = append(files, agentFile{"app.yaml", s.appBytes()}, agentFile{"flows/f.yaml", lintFixture()})
	if len(s.drawn) > 0 {
		files = append(files, agentFile{"mistake.txt", strings.Join(s.drawn, "\n") + "\n"})
	}
	return files
}

// appBytes is app.yaml's text: the manifest, then the raw tail.
func (s *lintStory) appBytes() []byte {
	b, err := yaml.Marshal(s.app)
	if err != nil {
		panic(err) // gen's own maps always marshal
	}
	return append(b, s.tail...)
}

// lintBase is the valid story every lint story starts from.
func (g *gen) lintBase(id string) m {
	intents := m{
		"go":   m{"description": "move on"},
		"back": m{"description": "go back"},
		"put":  m{"description": "put a value", "slots": m{"v": m{"type": "string", "required": true}}},
		"pick": m{"description": "pick one", "slots": m{"c": m{"type": "enum", "values": []any{"a", "b"}}}},
		"tick": m{"description": "tick", "examples": []any{"tick", "tock"}},
	}
	if g.chance(40) {
		intents["pick"].(m)["slots"].(m)["c"].(m)["synonyms"] = m{"a": []any{"first"}}
	}
	homeView := []any{
		m{"heading": "Home"},
		m{"list": m{"items": []any{"one", m{"label": "two", "when": "world.n > 0"}}}},
		m{"kv": m{"pairs": m{"n": "{{ world.n }}"}}},
	}
	if g.chance(50) {
		homeView = append(homeView, m{"choice": m{"mode": "single", "items": []any{
			m{"label": "Go", "intent": "go"},
			m{"label": "Pick a", "intent": "pick", "slots": m{"c": "a"}},
		}}})
	}
	states := m{
		"home": m{
			"view":           homeView,
			"relevant_world": []any{"n"},
			"on": m{
				"go":   []any{m{"target": "c"}},
				"put":  []any{m{"target": ".", "effects": []any{m{"set": m{"s": "{{ slots.v }}"}}}}},
				"pick": []any{m{"target": "p", "when": "slots.c == 'a'"}, m{"target": "."}},
				"back": []any{m{"target": "done", "when": "world.n > 5"}, m{"target": "ask"}},
				"tick": []any{m{"target": ".", "effects": []any{m{"increment": m{"n": 1}}}}},
			},
		},
		"c": m{"type": "compound", "initial": "c1", "view": "C {{ world.n }}",
			"on": m{"back": []any{m{"target": "home"}}},
			"states": m{
				"c1": m{"view": "C1", "on": m{"go": []any{m{"target": "../c2"}}}},
				"c2": m{"view": []any{m{"prose": "C2 {{ world.s }}"}}, "on_enter": []any{m{"increment": m{"n": 1}}},
					"timeout": m{"after": g.pick("5m", "1h", "2d"), "target": "home"}},
			}},
		"p": m{"type": "parallel", "on": m{"back": []any{m{"target": "home"}}}, "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{
				"a1": m{"view": "A1", "on": m{"go": []any{m{"target": "../a2", "emit": []any{"tick"}}}}},
				"a2": m{"view": "A2"},
			}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{
				"b1": m{"view": "B1", "on": m{"tick": []any{m{"target": "../b2"}}}},
				"b2": m{"view": "B2"},
			}},
		}},
		"ask": m{
			"on_enter": []any{m{"invoke": "host.agent.ask", "with": m{"agent": "rev", "prompt": "Say hi to {{ world.s }}"},
				"bind": m{"s": "text"}, "on_error": "home"}},
			"view": "ASK {{ world.s }}",
			"on":   m{"back": []any{m{"target": "home"}}, "go": []any{m{"target": "decide"}}},
		},
		"decide": m{
			"on_enter": []any{g.lintDecide()},
			"view":     "DECIDE",
			"on":       m{"back": []any{m{"target": "home"}}},
		},
		"done": m{"terminal": true, "view": "bye"},
	}
	app := m{
		"app":     m{"id": id, "version": "0.1.0", "title": "Lint story"},
		"hosts":   []any{"host.ok", "host.agent.ask", "host.agent.decide", "host.agent.task"},
		"world":   m{"n": m{"type": "int", "default": 0}, "s": m{"type": "string", "default": ""}, "flag": m{"type": "bool", "default": false}, "verdict": m{"type": "object", "default": m{}}},
		"intents": intents,
		"agents":  m{"rev": m{"system_prompt": "You review.", "tools": []any{"Read", "Grep"}, "effort": g.pick("low", "medium", "max")}},
		"root":    "home",
		"states":  states,
	}
	if g.chance(30) {
		delete(app, "hosts") // no allow-list: any invoke loads
	}
	return app
}

// lintDecide is the decide call of state decide: schema, persona,
// sometimes a selection pin or an agent_plugins alias.
func (g *gen) lintDecide() m {
	e := m{"invoke": "host.agent.decide", "id": "judge",
		"with": m{"agent": "rev", "prompt": "Decide.", "schema": "schemas/verdict.json"},
		"bind": m{"verdict": "submitted"}}
	if g.chance(40) {
		e["selection"] = m{"profile": "fast", "model": "claude-haiku-4-5", "effort": "low"}
	}
	return e
}

// lintInclude adds include: rooms/*.yaml and a room file with a state,
// an intent and a world key of its own.
func (g *gen) lintInclude(s *lintStory) {
	s.incl = true
	s.app["include"] = []any{"rooms/*.yaml"}
	s.files["rooms/extra.yaml"] = m{
		"states":  m{"extra": m{"view": "EXTRA {{ world.x }}", "on": m{"back": []any{m{"target": "home"}}, "hop": []any{m{"target": "."}}}}},
		"intents": m{"hop": m{"description": "hop"}},
		"world":   m{"x": m{"type": "string", "default": "x"}},
	}
	s.setOn("home", "hop", m{"target": "extra"})
}

// lintKid adds an import of ./kid (two leaves, an exit mapped home, a
// world_in), entered from home by intent enter.
func (g *gen) lintKid(s *lintStory) {
	s.kid = true
	s.files["kid/app.yaml"] = m{
		"app":     m{"id": "kid", "version": "0.1.0"},
		"world":   m{"t": m{"type": "string", "default": "t0"}, "k": m{"type": "int", "default": 0}},
		"intents": m{"poke": m{"description": "poke"}, "quit": m{"description": "quit"}},
		"exits":   m{"done": m{"description": "finished"}},
		"root":    "k1",
		"states": m{
			"k1": m{"view": "K1 {{ world.t }}", "on": m{"poke": []any{m{"target": "k2", "effects": []any{m{"increment": m{"k": 1}}}}}}},
			"k2": m{"view": "K2", "on": m{"quit": []any{m{"target": "@exit:done"}}}},
		},
	}
	s.app["imports"] = m{"kid": m{"source": g.pick("./kid", "./kid/", "kid/app.yaml"),
		"exits":    m{"done": m{"to": "home"}},
		"world_in": m{"t": "{{ world.s }}"}}}
	s.app["intents"].(m)["enter"] = m{"description": "enter the child"}
	s.setOn("home", "enter", m{"target": "kid"})
}

// lintFixture is the one flow fixture: from home, go lands in c.c1.
func lintFixture() m {
	return m{
		"test_kind":        "flow",
		"app":              "../app.yaml",
		"use_orchestrator": true,
		"initial_state":    "home",
		"turns": []any{
			m{"intent": m{"name": "go"}, "expect_state": "c.c1"},
			m{"intent": m{"name": "go"}, "expect_state": "c.c2"},
		},
	}
}
