package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// omap is a YAML mapping written in the order given (a graph's
// declaration order is the order its phases expand in).
type omap []struct {
	k string
	v any
}

func (o omap) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, e := range o {
		var v yaml.Node
		if err := v.Encode(e.v); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: e.k}, &v)
	}
	return n, nil
}

// phaseStory draws one story and its fixtures.
func (g *gen) phaseStory(id string) []agentFile {
	return g.phaseStoryOf(id, g.drawShape())
}

// phaseStoryOf writes the story of a drawn shape.
func (g *gen) phaseStoryOf(id string, sh *phaseShape) []agentFile {
	world := m{
		"n":   m{"type": "int", "default": 0},
		"s":   m{"type": "string", "default": ""},
		"log": m{"type": "string", "default": ""},
	}
	for k := range sh.world {
		world[k] = m{"type": "int", "default": 0}
	}
	intents := m{}
	for _, in := range []string{"go", "next", "bump", "ask", "retry", "back", "look", "side", "skip", "flip", "idle", "name"} {
		intents[in] = m{"description": in}
	}
	if sh.kidExit != "" {
		intents["delegate"] = m{"description": "delegate"}
	}
	if sh.globalCP != "" {
		intents[sh.globalCP] = m{"description": "global " + sh.globalCP}
	}
	cps := m{}
	for _, c := range sh.cps {
		cps[c] = m{"description": "checkpoint " + c}
		if c == "hold" {
			cps[c].(m)["slots"] = m{"why": m{"type": "string"}}
		}
	}
	params := m{}
	for _, p := range sh.params {
		d := m{"type": p.typ}
		if p.required {
			d["required"] = true
		}
		if p.def != nil {
			d["default"] = p.def
		}
		params[p.name] = d
	}
	tstates := g.phaseTemplate(sh)
	templates := m{"leg": m{"parameters": params, "states": tstates}}
	if g.chance(30) {
		// a second template the graph does not use
		templates["spare"] = m{"states": m{"{id}_spare": m{"view": "spare {{ tpl.id }}"}}}
	}
	var graph omap
	for i, pid := range sh.ids {
		e := omap{}
		for _, k := range sortedKeys(sh.given[i]) {
			e = append(e, struct {
				k string
				v any
			}{k, sh.given[i][k]})
		}
		e = append(e, struct {
			k string
			v any
		}{"next", sh.next[i]})
		if len(sh.budgets[i]) > 0 {
			e = append(e, struct {
				k string
				v any
			}{"cycle_budgets", sh.budgets[i]})
		}
		if sh.onEnter[i] {
			fx := []any{m{"set": m{"log": "{{ world.log }}E{{ tpl.id }}"}}}
			if i%2 == 0 {
				fx = append(fx, m{"invoke": "host.ok", "with": m{"phase": "{{ tpl.id }}", "enter": "{{ tpl.title }}"}})
			}
			e = append(e, struct {
				k string
				v any
			}{"on_enter", fx})
		}
		var v any = e
		if sh.mistake == "empty-entry" && i == len(sh.ids)-1 {
			v = nil
		}
		graph = append(graph, struct {
			k string
			v any
		}{pid, v})
	}
	phases := m{"template": "leg", "graph": graph}
	states := m{
		"start":          m{"view": "start log={{ world.log }}", "on": m{"go": []any{m{"target": sh.ids[0] + "_executing"}}}},
		"completed":      m{"view": "completed n={{ world.n }} log={{ world.log }}", "on": m{"back": []any{m{"target": sh.ids[0] + "_executing"}}}},
		"wrap_executing": m{"view": "wrap log={{ world.log }}", "on": m{"go": []any{m{"target": "completed"}}}},
	}
	for _, n := range []string{"ended_ok", "failed", "ended", "abandoned", "terminated"} {
		// go starts over, so a walk goes on past the end
		states[n] = m{"view": n + " log={{ world.log }} s={{ world.s }}", "on": m{"go": []any{m{"target": sh.ids[0] + "_executing"}}}}
	}
	mine := "" // a hand-written state a generated one collides with
	switch sh.mistake {
	case "missing-required":
		params["must"] = m{"type": g.pick("string", "int"), "required": true}
		skip := g.rnd.IntN(len(graph))
		for i := range graph {
			if i != skip {
				graph[i].v = append(graph[i].v.(omap), struct {
					k string
					v any
				}{"must", "m"})
			}
		}
	case "unknown-template":
		phases["template"] = g.pick("nope", "Leg")
	case "no-templates":
		templates = nil
	case "no-template-name":
		delete(phases, "template")
	case "collide-phases":
		tstates[g.pick("shared", "x_{limit}")] = m{"view": "shared"}
	case "collide-story":
		sh.include = sh.include || g.chance(50)
		mine = sh.ids[len(sh.ids)-1] + g.pick("_awaiting_reply", "_error")
		states[mine] = m{"view": "mine", "on": m{"go": []any{m{"target": sh.ids[0] + "_executing"}}}}
	case "bad-key-param":
		tstates["{id}_{"+g.pick("nope", "phase_id", "tpl")+"}"] = m{"view": "bad"}
	case "second-phases", "dup-template", "dup-checkpoint":
		sh.include = true
	}
	app := m{
		"exits":   m{"finished_executing": m{"description": "the last phase is done"}},
		"app":     m{"id": id, "version": "0.1.0"},
		"hosts":   []any{"host.ok"},
		"world":   world,
		"intents": intents,
		"root":    sh.root,
		"states":  states,
	}
	files := []agentFile{{"app.yaml", app}}
	if sh.kidExit != "" {
		app["imports"] = m{"kid": m{"source": "./kid", "entry": "k1",
			"exits": m{"done": m{"to": sh.kidExit}}}}
		files = append(files, agentFile{"kid/app.yaml", g.child()})
	}
	blocks := m{"phases": phases}
	if templates != nil {
		blocks["phase_templates"] = templates
	}
	if len(cps) > 0 {
		blocks["checkpoint_intents"] = cps
	}
	if sh.include {
		// the phase blocks in an included file; the templates some of
		// the time stay in the manifest
		app["include"] = []any{"phases/*.yaml"}
		inc := m{"phases": phases}
		if mine != "" && g.chance(50) {
			// the colliding state declared in the included file
			inc["states"] = m{mine: states[mine]}
			delete(states, mine)
		}
		if templates != nil {
			if g.chance(50) {
				inc["phase_templates"] = templates
			} else {
				app["phase_templates"] = templates
			}
		}
		if len(cps) > 0 {
			inc["checkpoint_intents"] = cps
		}
		files = append(files, agentFile{"phases/a.yaml", inc})
		switch sh.mistake {
		case "second-phases":
			files = append(files, agentFile{"phases/b.yaml", m{"phases": m{"template": "leg", "graph": m{"zz": m{}}}}})
		case "dup-template":
			files = append(files, agentFile{"phases/b.yaml", m{"phase_templates": m{"leg": m{"states": m{"{id}_b": m{}}}}}})
		case "dup-checkpoint":
			files = append(files, agentFile{"phases/b.yaml", m{"checkpoint_intents": m{"approve": m{"description": "again"}}}})
			if len(cps) == 0 {
				inc["checkpoint_intents"] = m{"approve": m{"description": "approve"}}
			}
		}
	} else {
		for k, v := range blocks {
			app[k] = v
		}
	}
	for i := range 1 + g.rnd.IntN(3) {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.phaseFixture(sh)})
	}
	return files
}

// phaseSim predicts where a phase story's intents lead and what they
// leave in the world; lost once a turn's outcome is not certain.
type phaseSim struct {
	sh     *phaseShape
	cur    string
	n      int
	s, log string
	sOK    bool
	cyc    map[string]int
	lost   bool
	calls  []m // host.ok args this turn
}

// phaseOf is the phase index and the rest of a generated state's name.
func (p *phaseSim) phaseOf(state string) (int, string) {
	for i, id := range p.sh.ids {
		if rest, ok := strings.CutPrefix(state, id+"_"); ok {
			return i, rest
		}
	}
	return -1, ""
}

// text is what phase i's parameter substitutes as.
func (p *phaseSim) text(i int, name string) string {
	v, ok := p.sh.value(i, name)
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

// arc is the state phase i's next.<arc> names.
func (p *phaseSim) arc(i int, arc string) string {
	v, _ := p.sh.next[i][arc].(string)
	switch v {
	case "", "terminated", "ended", "completed", "abandoned", "failed":
		return v
	}
	if strings.HasPrefix(v, "ended_") {
		return v
	}
	if x, ok := strings.CutPrefix(v, "@exit:"); ok {
		return "__exit__" + x + "_executing"
	}
	return v + "_executing"
}

// handled is the intents the current state takes.
func (p *phaseSim) handled() []string {
	i, rest := p.phaseOf(p.cur)
	switch {
	case i < 0:
		switch p.cur {
		case "completed":
			return []string{"back"}
		}
		if strings.HasPrefix(p.cur, "kid.") {
			return []string{"kid__poke", "kid__quit"}
		}
		if strings.HasPrefix(p.cur, "__exit__") {
			return nil // the exit's terminal state takes nothing
		}
		return []string{"go"}
	case rest == "executing":
		out := []string{"next", "bump", "ask", "retry"}
		for _, c := range []struct {
			in string
			ok bool
		}{{"flip", p.has("gate")}, {"look", p.sh.review}, {"side", p.sh.keyState}, {"skip", p.sh.skip}, {"idle", p.sh.budgets[i]["idle"] != nil}, {"delegate", p.sh.kidExit != ""}, {"name", p.sh.nameArc}} {
			if c.ok {
				out = append(out, c.in)
			}
		}
		return out
	case rest == "awaiting_reply":
		return append([]string{"back"}, p.sh.cps...)
	case rest == "error":
		return []string{"back", "next"}
	case strings.HasPrefix(rest, "review"):
		return []string{"look", "back"}
	}
	return []string{"back"}
}

func (p *phaseSim) has(param string) bool {
	return slices.ContainsFunc(p.sh.params, func(pp *phaseParam) bool { return pp.name == param })
}

// enter runs what entering state to does (the phase's on_enter).
func (p *phaseSim) enter(to string) {
	p.cur = to
	i, rest := p.phaseOf(to)
	// the entry on_enter reaches every top-level *_executing state of the
	// phase ({id}_{kind} with kind run_executing too), the template's own
	// on_enter is on {id}_executing alone
	if i < 0 || strings.Contains(rest, ".") || !strings.HasSuffix(rest, "executing") {
		return
	}
	switch {
	case p.sh.onEnter[i]:
		p.log += "E" + p.sh.ids[i]
		if i%2 == 0 {
			t := p.text(i, "title")
			p.calls = append(p.calls, m{"phase": p.sh.ids[i], "enter": t})
		}
	case p.sh.tplEnter && rest == "executing":
		t := p.text(i, "title")
		p.s = "tpl " + t
		p.sOK = !strings.Contains(t, "{{")
	}
}

// intent takes one intent and reports whether its outcome is certain.
func (p *phaseSim) intent(in string, why string) {
	p.calls = nil
	if p.lost {
		return
	}
	if !slices.Contains(p.handled(), in) {
		p.lost = true
		return
	}
	i, rest := p.phaseOf(p.cur)
	to := ""
	var fx func()
	switch {
	case i < 0:
		switch {
		case in == "kid__quit":
			to = p.sh.kidExit
		case p.cur == "kid.k1":
			to = "kid.k2"
		case p.cur == "kid.k2":
			to = "kid.k1"
		case p.cur == "wrap_executing":
			to = "completed"
		default:
			to = p.sh.ids[0] + "_executing"
		}
	case rest == "executing":
		id := p.sh.ids[i]
		if n, ok := phaseBudget(p.sh.budgets[i][in]); ok {
			key := in
			spent := p.cyc[id+key] >= n
			if in == "bump" && p.sh.bumpDefault {
				// the default arm is not budgeted: it wins once the
				// guarded arm is spent
				lim := p.text(i, "limit")
				if l, err := strconv.Atoi(lim); spent || err != nil || p.n >= l {
					p.enter(id + "_awaiting_reply")
					return
				}
			} else if spent {
				p.enter(id + "_error")
				return
			}
			defer func() { p.cyc[id+key]++ }()
		}
		switch in {
		case "next":
			to = p.arc(i, "done")
			fx = func() { p.log += ">" + id }
		case "bump":
			lim := p.text(i, "limit")
			if l, err := strconv.Atoi(lim); err == nil && p.n < l {
				to = "."
				st := 1
				if v, ok := p.sh.value(i, "step"); ok && p.has("step") {
					st, _ = v.(int)
				}
				fx = func() { p.n += st }
			} else {
				to = id + "_awaiting_reply"
			}
		case "ask":
			to = id + "_awaiting_reply"
			t := p.text(i, "title")
			fx = func() { p.calls = append(p.calls, m{"phase": id, "title": t, "n": fmt.Sprint(p.n)}) }
			if strings.Contains(t, "{{") {
				fx = func() { p.calls = append(p.calls, m{"phase": id}) }
			}
		case "retry":
			to = p.arc(i, "retry")
		case "flip":
			to = "."
			g := p.text(i, "gate")
			fx = func() {
				p.s, p.sOK = "shut", true
				if g == "true" {
					p.s = "gate " + id
				}
			}
		case "name":
			to = "."
			t := p.text(i, "title")
			if strings.ContainsAny(t, "{'") || !p.sOK {
				p.lost = true // a rendered title, or one that breaks the guard
				return
			}
			fx = func() {
				if p.s == t {
					p.log += "="
				} else {
					p.s = t
				}
			}
		case "look":
			to = id + "_review.r1"
		case "side":
			k := p.text(i, "kind")
			to = id + "_" + k
		case "skip":
			to = p.arc(i, "skip")
		case "idle":
			// not handled by the template: the budget's default arm alone
			to = id + "_error"
		case "delegate":
			to = "kid.k1"
		}
	case rest == "awaiting_reply":
		id := p.sh.ids[i]
		switch in {
		case "back":
			to = id + "_executing"
		case "approve":
			to = p.arc(i, "done")
			fx = func() { p.log += "+" + id }
		case "hold":
			to = "."
			fx = func() { p.s, p.sOK = why, true }
		case "veto":
			to = id + "_executing"
			t := p.text(i, "title")
			fx = func() { p.s, p.sOK = "veto "+t, !strings.Contains(t, "{{") }
		}
	case rest == "error":
		if in == "back" {
			to = p.sh.ids[i] + "_executing"
		} else {
			to = p.arc(i, "done")
		}
	case rest == "review.r1":
		if in == "look" {
			to = p.sh.ids[i] + "_review.{id}_inner"
		} else {
			to = p.sh.ids[i] + "_executing"
		}
	default:
		to = p.sh.ids[i] + "_executing"
	}
	if fx != nil {
		fx()
	}
	if to != "." {
		// a self-transition by name runs on_enter again ("." does not)
		p.enter(to)
	}
}

// phaseFixture draws one fixture walking the expanded machine.
func (g *gen) phaseFixture(sh *phaseShape) m {
	f := m{"test_kind": "flow", "app": "../app.yaml"}
	// without host_handlers (the legacy path) a fixture starts in no
	// state unless it names one
	stubs := !g.chance(10)
	if stubs {
		f["host_handlers"] = m{"host.ok": m{"data": m{"ok": true}}}
	}
	if !stubs || g.chance(40) {
		f["initial_state"] = sh.root
	}
	// the start state's on_enter does not run when a session starts
	p := &phaseSim{sh: sh, cyc: map[string]int{}, sOK: true, cur: sh.root}
	var turns []any
	all := []string{"go", "next", "bump", "ask", "retry", "back", "look", "side", "approve", "hold", "veto", "kid__poke"}
	for range 3 + g.rnd.IntN(8) {
		in := g.pick(all...)
		if h := p.handled(); len(h) > 0 && !p.lost && g.chance(88) {
			in = h[g.rnd.IntN(len(h))]
		}
		slots := m{}
		why := g.pick("later", "two words", "")
		if in == "hold" {
			slots["why"] = why
		}
		t := m{"intent": m{"name": in, "slots": slots}}
		p.intent(in, why)
		if !p.lost {
			if g.chance(55) {
				t["expect_state"] = p.cur
			}
			ew := m{}
			if g.chance(25) {
				ew["n"] = p.n
			}
			if g.chance(25) {
				ew["log"] = p.log
			}
			if p.sOK && g.chance(15) {
				ew["s"] = p.s
			}
			if len(ew) > 0 {
				t["expect_world"] = ew
			}
			if i, rest := p.phaseOf(p.cur); i >= 0 && (rest == "executing" || rest == "awaiting_reply") && g.chance(30) {
				t["expect_view_matches"] = regexp.QuoteMeta(sh.ids[i])
				if rest == "executing" && g.chance(50) {
					t["expect_view_matches"] = regexp.QuoteMeta(fmt.Sprintf("<%s> title=", sh.ids[i]))
				}
			}
			if stubs && len(p.calls) > 0 && g.chance(60) {
				c := p.calls[g.rnd.IntN(len(p.calls))]
				t["expect_host_calls"] = []any{m{"handler": "host.ok", "args": m{"phase": c["phase"]}}}
			}
		} else if g.chance(5) {
			t["expect_state"] = g.pick("completed", sh.ids[0]+"_executing")
		}
		turns = append(turns, t)
	}
	f["turns"] = turns
	return f
}
