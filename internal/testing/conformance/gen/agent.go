package main

// The agent kind (`gen write -kind agent`): stories whose decision points
// ask an agent (host.agent.decide / ask / task invokes with prompt,
// schema, agent persona and args), bind answer fields into the world,
// route failures through on_error, emit on what came back, and show it
// in string, typed and extends views with choice menus. Their fixtures
// feed the answers every way the flow format allows: host_handlers
// stubs (data, error, infra_error, both, by_call, absent handler),
// host cassettes (episodes matched on handler, call, phase,
// schema_name; consumed once or replay: any; agent: blocks; misses),
// and on the legacy path a recording that classifies utterances into
// intents (exact and case-folded matches, confidence, majority_of,
// unknown and undeclared intents).

import (
	"fmt"
	"path/filepath"
)

// agentFile is one file of an agent story besides app.yaml: YAML
// values are marshalled, strings written as they are.
type agentFile struct {
	name string
	body any
}

// writeAgent writes n agent stories, story i from seed+i.
// bindings gives the fixtures host_bindings (bindings.go) and adds one
// fed by the real agents alone.
func writeAgent(dir string, n int, seed uint64, bindings bool) error {
	return writeAgentText(dir, n, seed, bindings, textOpts{})
}

// writeAgentText is writeAgent with -text.
func writeAgentText(dir string, n int, seed uint64, bindings bool, t textOpts) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		g.text = t
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		files := g.agentStory(fmt.Sprintf("gena-%d", seed+uint64(i)))
		if bindings {
			b := newBindGen(seed + uint64(i))
			files = b.apply(files, agentFile{"flows/b.yaml", b.agentFixtureBase()})
		}
		if err := writeText(d, files, t); err != nil {
			return err
		}
	}
	return nil
}

// agentIntents are the intents an agent story declares; pick has one
// string slot, say one optional int slot.
var agentIntents = []string{"start", "retry", "look", "back", "done", "no_submit", "unsure", "pick"}

// agentStory draws one story with its files.
func (g *gen) agentStory(id string) []agentFile {
	intents := m{}
	for i, in := range agentIntents {
		d := m{"description": "the " + in + " intent"}
		if g.chance(70) {
			d["examples"] = []any{in, "please " + in}
		}
		if g.chance(60) {
			d["priority"] = 10 * (i + 1)
		}
		if g.chance(15) {
			d["hidden"] = true
		}
		if in == "pick" {
			d["slots"] = m{"choice": m{"type": "string", "required": g.chance(50)}}
		}
		intents[in] = d
	}
	world := m{
		"verdict":  m{"type": "object", "default": m{}},
		"decision": m{"type": "string", "default": ""},
		"conf":     m{"type": g.pick("number", "any"), "default": 0},
		"reason":   m{"type": "string", "default": ""},
		"note":     m{"type": "string", "default": ""},
		"tries":    m{"type": "int", "default": 0},
		"ok":       m{"type": g.pick("bool", "any"), "default": false},
	}
	if g.chance(40) {
		world["last_error"] = m{"type": "string", "default": ""}
	}
	hosts := []any{"host.agent.decide", "host.agent.ask", "host.agent.task", "host.agent.converse", "host.agent.extract", "host.agent.search"}
	gone := g.chance(30)
	states := m{
		"idle":    g.agentIdle(),
		"asking":  g.agentAsking(),
		"decided": g.agentDecided(gone),
		"failed":  g.agentFailed(),
	}
	if gone {
		states["gone"] = m{"terminal": true, "view": "GONE d={{ world.decision }}"}
	}
	// every room takes the emitted intents (an emit no arm takes fails
	// the whole run on both engines, hiding the rest of the story)
	for _, k := range []string{"idle", "decided", "failed"} {
		on := states[k].(m)["on"].(m)
		for _, in := range []string{"done", "no_submit", "unsure"} {
			if on[in] == nil {
				on[in] = []any{m{"target": g.pick(".", ".", "idle")}}
			}
		}
	}
	if g.chance(25) {
		// a per-state decider: it only changes where a gate stops
		states["asking"].(m)["decider"] = g.pick("human", "llm")
	}
	app := m{
		"app":     m{"id": id, "version": "0.1.0"},
		"hosts":   hosts,
		"world":   world,
		"intents": intents,
		"root":    "idle",
		"states":  states,
		"agents": m{"rev": m{
			"system_prompt": "You review. Answer with the schema.",
			"model":         g.pick("claude-haiku-4-5", "claude-opus-4-7"),
		}},
	}
	files := []agentFile{
		{"app.yaml", app},
		{"prompts/decide.md", "Decide for {{ world.tries }}.\n"},
		{"schemas/verdict.json", `{"type":"object","required":["decision"],"properties":{"decision":{"type":"string","enum":["yes","no"]},"confidence":{"type":"number"},"reason":{"type":"string"}}}` + "\n"},
		{"views/base.pongo", "{% block status %}BASE{% endblock %}\n{% block body %}{% endblock %}\n{% block choices %}{% endblock %}\n"},
	}
	return append(files, g.agentFixtures()...)
}

// agentDecideEffect is the decide call: prompt file or inline text,
// schema, persona, templated args, a random set of binds, maybe on_error.
func (g *gen) agentDecideEffect(call string) m {
	with := m{
		"prompt": g.pick("prompts/decide.md", "Decide now: {{ world.tries }}", "Prev {{ world.verdict.decision }} {{ world.conf }}",
			// (a template error in with: is turn-fatal upstream, ending the run)
			"{% if world.ok %}again{% endif %} {{ world.ok }}", "{{ world.verdict }}", "{{ world.tries + 1 }}|{{ world.ok }}"),
		"args": m{"tries": "{{ world.tries }}", "prev": "{{ world.decision }}"},
	}
	if g.chance(80) {
		with["schema"] = "schemas/verdict.json"
	}
	if g.chance(60) {
		with["agent"] = "rev"
	}
	e := m{"invoke": "host.agent.decide", "id": call, "with": with}
	bind := m{}
	for _, b := range [][2]string{
		{"verdict", "submitted"},
		{"decision", g.pick("submitted.decision", "submitted.decision", "decision", "submitted.missing")},
		{"conf", "submitted.confidence"},
		{"reason", g.pick("submitted.reason", "submitted.reason.text", "stderr")},
		{"ok", "ok"},
	} {
		if g.chance(65) {
			bind[b[0]] = b[1]
		}
	}
	if len(bind) > 0 {
		e["bind"] = bind
	}
	if g.chance(65) {
		e["on_error"] = g.pick("failed", "failed", ".", "idle")
	}
	return e
}

// agentEmits are the post-bind emits guarded on what the answer left.
func (g *gen) agentEmits() []any {
	var out []any
	if g.chance(80) {
		out = append(out, m{"emit_intent": "done", "when": g.pick(
			"world.decision != ''", "world.decision == 'yes'", "world.conf >= 0.5", "world.ok == true")})
	}
	if g.chance(60) {
		out = append(out, m{"emit_intent": "no_submit", "when": g.pick(
			"world.decision == ''", "world.decision != 'yes' && world.decision != 'no'")})
	}
	if g.chance(30) {
		out = append(out, m{"emit_intent": "unsure", "when": "world.conf < 0.5"})
	}
	return out
}

func (g *gen) agentIdle() m {
	st := m{"view": g.agentView("IDLE"), "relevant_world": []any{"decision", "tries"}}
	startArm := m{"target": "asking"}
	var fx []any
	if g.chance(50) {
		fx = append(fx, m{"increment": m{"tries": 1}})
	}
	if g.chance(40) {
		fx = append(fx, m{"say": g.pick("asking the reviewer", "try {{ world.tries }}")})
	}
	if g.chance(25) {
		// the decision point on the arc instead of the room's on_enter
		fx = append(fx, g.agentDecideEffect("d0"))
	}
	if fx != nil {
		startArm["effects"] = fx
	}
	on := m{
		"start": []any{startArm},
		"look":  []any{m{"target": "."}},
		"pick":  []any{m{"target": g.pick(".", "decided"), "effects": []any{m{"set": m{"decision": "{{ slots.choice }}"}}}}},
	}
	if g.chance(40) {
		on["start"] = []any{m{"when": "world.tries > 1", "target": "failed"}, startArm}
	}
	st["on"] = on
	return st
}

func (g *gen) agentAsking() m {
	var enter []any
	if g.chance(30) {
		enter = append(enter, m{"say": "reviewing {{ world.tries }}"})
	}
	enter = append(enter, g.agentDecideEffect(g.pick("d1", "d1", "d-{{ world.tries }}")))
	if g.chance(30) {
		enter = append(enter, m{"invoke": "host.agent.ask", "id": "a1",
			"with": m{"prompt": "Why {{ world.decision }}?", "agent": "rev"},
			"bind": m{"note": g.pick("submitted.answer", "answer", "submitted")}})
	}
	enter = append(enter, g.agentEmits()...)
	return m{
		"view":           g.agentView("ASK"),
		"relevant_world": []any{"verdict", "decision"},
		"on_enter":       enter,
		"on": m{
			"done":      []any{m{"target": "decided"}},
			"no_submit": []any{m{"target": "failed"}},
			"unsure":    []any{m{"target": g.pick("idle", "failed")}},
			"look":      []any{m{"target": "."}},
			"retry":     []any{m{"target": "asking"}},
		},
	}
}

func (g *gen) agentDecided(gone bool) m {
	back := m{"target": "idle"}
	if g.chance(60) {
		ask := m{"invoke": "host.agent.ask", "id": "a2",
			"with": m{"prompt": "Summarise {{ world.reason }}", "args": m{"d": "{{ world.decision }}"}},
			"bind": m{"note": g.pick("submitted.answer", "answer", "submitted.answer")}}
		if g.chance(50) {
			ask["on_error"] = g.pick("failed", ".")
		}
		back["effects"] = []any{ask}
	}
	look := m{"target": "."}
	if g.chance(40) {
		// the other agent verbs, answered by a stub or by nothing
		look["effects"] = []any{m{"invoke": "host.agent." + g.pick("converse", "extract", "search"), "id": "v1",
			"with": m{"prompt": "More on {{ world.decision }}"}, "bind": m{"note": g.pick("submitted.answer", "answer")}}}
	}
	on := m{"back": []any{back}, "look": []any{look}}
	if gone {
		on["start"] = []any{m{"target": "gone"}}
	}
	if g.chance(40) {
		on["retry"] = []any{m{"target": "asking", "effects": []any{m{"set": m{"decision": "", "conf": 0}}}}}
	}
	st := m{"view": g.agentView("DECIDED"), "on": on}
	if g.chance(15) {
		// the task runs in the background; its on_complete reads the answer
		st["on_enter"] = []any{m{"invoke": "host.agent.task", "id": "t1", "background": true,
			"with":        m{"prompt": "Act on {{ world.decision }}", "acceptance": m{"schema": "schemas/verdict.json"}},
			"bind":        m{"note": "submitted.summary"},
			"on_complete": []any{m{"set": m{"reason": "{{ last_job_status }}"}}}}}
	} else if g.chance(30) {
		st["on_enter"] = []any{m{"invoke": "host.agent.task", "id": "t1",
			"with": m{"prompt": "Act on {{ world.decision }}", "acceptance": m{"schema": "schemas/verdict.json"}}, "bind": m{"note": "submitted.summary"}}}
	}
	return st
}

func (g *gen) agentFailed() m {
	on := m{"retry": []any{m{"target": "asking", "effects": []any{m{"increment": m{"tries": 1}}}}}, "look": []any{m{"target": "."}}, "back": []any{m{"target": "idle"}}}
	return m{"view": g.agentView("FAILED"), "on": on}
}

// agentChoice is a choice menu: single (with pre-bound slots, a param
// capture, templated labels, per-item when), multi or form.
func (g *gen) agentChoice() m {
	switch g.rnd.IntN(4) {
	case 0:
		return m{"mode": "multi", "prompt": "Pick", "intent": "pick", "slot": "choice", "items": []any{
			m{"value": "yes", "label": "Yes", "hint": "agree"}, m{"value": "no"}, m{"value": "maybe", "when": "world.conf > 0.5"}}}
	case 1:
		field := m{"type": "string", "placeholder": "yes or no", "required": true}
		if g.chance(60) { // padded by the default as written (conformance form-default-padding)
			field["default"] = g.pick("no", "5", "日本", "{{ world.decision }}", "   ", "a long default value")
		}
		return m{"mode": "form", "prompt": "Answer", "intent": "pick", "template": "I choose {choice} now.",
			"fields": m{"choice": field}}
	case 2:
		return m{"mode": "single", "prompt": "Decide {{ world.decision }}", "when": "world.tries < 5", "items": []any{
			m{"label": "yes", "intent": "pick", "slots": m{"choice": "yes"}},
			m{"label": "say it", "intent": "pick", "param": m{"slot": "choice", "type": "string", "placeholder": "your answer", "required": true}},
			m{"label": "retry ({{ world.tries }})", "intent": "retry", "when": "world.decision == ''"},
		}}
	}
	return m{"mode": "single", "prompt": "Actions", "items": []any{
		m{"label": "retry", "hint": "ask again", "intent": "retry"},
		m{"label": "look", "intent": "look"},
	}}
}

// agentView is a random view of what the answer left: a string, typed
// elements with a choice menu, or an extends view with blocks.
func (g *gen) agentView(tag string) any {
	switch g.rnd.IntN(5) {
	case 0:
		return tag + " d={{ world.decision }} c={{ world.conf }} r={{ world.reason }} ok={{ world.ok }}"
	case 1:
		return tag + " v={{ world.verdict.decision }} n={{ world.note }} e={{ world.last_error }} t={{ world.tries }} $={{ world.turn_cost_usd }}/{{ world.session_cost_usd }}"
	case 2:
		return []any{
			m{"heading": tag},
			m{"kv": m{"pairs": m{"Decision": "{{ world.decision|default:\"(none)\" }}", "Conf": "{{ world.conf }}"}}},
			m{"prose": "{{ world.reason }}", "when": "world.reason != ''"},
			m{"choice": g.agentChoice()},
		}
	case 3:
		return m{"extends": "base", "blocks": m{
			"body":    []any{m{"prose": tag + " {{ world.decision }}"}, m{"kv": m{"pairs": m{"Note": "{{ world.note }}"}}}},
			"choices": []any{m{"list": m{"items": []any{"retry", m{"label": "back", "hint": "to idle"}}}}},
		}}
	default:
		return tag + " {{ world.verdict }}"
	}
}
