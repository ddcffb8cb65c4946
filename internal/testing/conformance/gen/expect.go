package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
)

// -kind expect: small stories (leaves that are terminal or not, a
// compound, a parallel state, an @exit, guards that fail, a required
// slot) with fixtures that use every key upstream's runner reads, with
// values that pass and values that fail, on both paths (expect_fixture.go).
// The stories are drawn from one skeleton, so a small model (xstory.step)
// predicts each turn well enough that most expectations pass; where it
// is wrong both engines fail alike, which is still compared.

// The skeleton's states: leaves, the compound c and the parallel p.
var (
	xLeaves  = []string{"idle", "a", "b", "done"}
	xIntents = []string{"go", "back", "fin", "out", "gate", "need", "opt", "stay"}
	// the targets an arm may name ("." stays)
	xTargets = []string{"idle", "a", "b", "done", "c", "c.c2", "p", "@exit:out", "."}
	// parStart is p's resting path when entered.
	parStart = "p#p.ra.a1|p.rb.b1"
)

// xarm is one arm: taken when world.n > th (th < 0: no guard).
type xarm struct {
	th      int
	target  string
	inc     int
	setWho  bool
	setB    bool
	hint    string
	invokes bool // calls host.ok (bind r)
}

// xstory is one drawn story: per owner state, per intent, its arms.
type xstory struct {
	arms  map[string]map[string][]xarm
	term  map[string]bool   // leaf path → terminal: true
	views map[string]string // leaf path (or p) → the view's first word
	host  bool              // some arm invokes host.ok
	// gate: the story has state w, entered from idle by wait, whose
	// on_enter calls host.ok and then emits go (to a); back leaves w
	// for idle, an operator-only arc, so w is a decision gate where
	// staged mode stops the post-bind emit
	gate bool
	// decider is w's decider: "" (staged mode stops), human (stops in
	// every mode) or llm (never stops)
	decider string
}

type xgen struct {
	rnd *rand.Rand
	s   *xstory
	bad int // the chance in 100 that a drawn value fails (wrong)
}

func (g *xgen) pick(xs ...string) string { return xs[g.rnd.IntN(len(xs))] }
func (g *xgen) chance(pct int) bool      { return g.rnd.IntN(100) < pct }

// writeExpect writes n stories, story i from seed+i, each with two or
// three fixture files.
func writeExpect(dir string, n int, seed uint64) error {
	for i := range n {
		g := &xgen{rnd: rand.New(rand.NewPCG(seed+uint64(i), (seed+uint64(i))^0x9e3779b97f4a7c15))}
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		id := fmt.Sprintf("expect-%d", seed+uint64(i))
		files := map[string]any{"app.yaml": g.story(id), filepath.Join("flows", "cassettes", "ok.cassette.yaml"): m{
			"kind": "host_cassette", "app_id": id,
			"episodes": []any{m{"id": "ok", "match": m{"handler": "host.ok"}, "replay": "any", "response": m{"data": m{"v": "R"}}}},
		}}
		for j := range 2 + g.rnd.IntN(2) {
			files[filepath.Join("flows", fmt.Sprintf("f%d.yaml", j))] = g.fixtureDocs()
		}
		var fs []agentFile
		for name, v := range files {
			fs = append(fs, agentFile{name, v})
		}
		if err := writeFiles(d, fs); err != nil {
			return err
		}
	}
	return nil
}

// story draws the arms, terminal leaves and views, and writes app.yaml.
func (g *xgen) story(id string) m {
	s := &xstory{arms: map[string]map[string][]xarm{}, term: map[string]bool{"done": true}, views: map[string]string{}}
	g.s = s
	s.term["b"] = g.chance(40)
	s.term["c.c2"] = g.chance(30)
	// owners and the intents each may handle: a compound's child may
	// share one with c (the child's arms decide, a failing guard there
	// included); p never shares one with its regions' leaves
	owners := map[string][]string{
		"idle": xIntents, "a": xIntents, "b": xIntents, "done": {"back", "stay"},
		"c": {"back", "fin", "out", "need", "gate"}, "c.c1": {"go", "gate", "stay", "opt", "back"}, "c.c2": {"go", "gate", "stay", "fin"},
		"p": {"back", "fin", "out", "gate", "need", "stay"},
	}
	for _, o := range slices.Sorted(maps.Keys(owners)) {
		cands := slices.Clone(owners[o])
		g.rnd.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		k := 1 + g.rnd.IntN(len(cands))
		if o == "done" && g.chance(60) {
			k = 0 // a terminal leaf with no arms at all, mostly
		}
		s.arms[o] = map[string][]xarm{}
		for _, in := range cands[:k] {
			s.arms[o][in] = g.armList(in)
		}
	}
	// regions: go moves ra, opt moves rb (p's own arms never take them)
	s.arms["p.ra.a1"] = map[string][]xarm{"go": {{th: -1, target: "p.ra.a2", inc: g.rnd.IntN(2)}}}
	s.arms["p.ra.a2"] = map[string][]xarm{"go": {{th: -1, target: "p.ra.a1"}}}
	s.term["p.ra.a2"] = g.chance(30)
	if g.chance(30) {
		// an exit from inside a region (p never takes opt)
		s.arms["p.ra.a2"]["opt"] = []xarm{{th: -1, target: "@exit:out"}}
	}
	s.arms["p.rb.b1"] = map[string][]xarm{"opt": {{th: -1, target: "p.rb.b2"}}}
	for _, l := range []string{"idle", "a", "b", "done", "c.c1", "c.c2", "p"} {
		if g.chance(70) {
			s.views[l] = strings.ToUpper(strings.ReplaceAll(l, ".", ""))
		}
	}
	states := m{}
	for _, l := range xLeaves {
		states[l] = g.stateYAML(l)
	}
	if s.gate = g.chance(40); s.gate {
		s.host = true
		s.arms["idle"]["wait"] = []xarm{{th: -1, target: "w"}}
		states["idle"] = g.stateYAML("idle")
		states["w"] = m{
			"view":     "W r={{ world.r }}",
			"on_enter": []any{m{"invoke": "host.ok", "with": m{"x": "1"}, "bind": m{"r": "v"}}, m{"emit_intent": "{{ world.r == 'R' ? 'go' : '' }}"}},
			"on":       m{"go": []any{m{"target": "a"}}, "back": []any{m{"target": "idle"}}},
		}
		if s.decider = g.pick("", "", "human", "llm"); s.decider != "" {
			states["w"].(m)["decider"] = s.decider
		}
	}
	c := m{"type": "compound", "initial": "c1", "states": m{"c1": g.stateYAML("c.c1"), "c2": g.stateYAML("c.c2")}}
	if on := g.onYAML("c"); len(on) > 0 {
		c["on"] = on
	}
	states["c"] = c
	p := m{"type": "parallel", "states": m{
		"ra": m{"type": "compound", "initial": "a1", "states": m{"a1": g.stateYAML("p.ra.a1"), "a2": g.stateYAML("p.ra.a2")}},
		"rb": m{"type": "compound", "initial": "b1", "states": m{"b1": g.stateYAML("p.rb.b1"), "b2": m{}}},
	}}
	if on := g.onYAML("p"); len(on) > 0 {
		p["on"] = on
	}
	if v, ok := s.views["p"]; ok {
		p["view"] = v + " n={{ world.n }}"
	}
	states["p"] = p
	intents := m{}
	for _, in := range xIntents {
		intents[in] = m{"description": in}
	}
	if s.gate {
		intents["wait"] = m{"description": "wait"}
	}
	intents["need"] = m{"description": "need", "slots": m{"who": m{"type": "string", "required": true}}}
	intents["opt"] = m{"description": "opt", "slots": m{"v": m{"type": "int"}}}
	app := m{
		"app": m{"id": id, "version": "0.1.0"},
		"world": m{
			"n": m{"type": "int", "default": 0},
			"s": m{"type": "string", "default": ""},
			"b": m{"type": "bool", "default": false},
			"r": m{"type": "string", "default": ""},
		},
		"intents": intents,
		"exits":   m{"out": m{"description": "out"}},
		"root":    "idle",
		"states":  states,
	}
	if s.host {
		app["hosts"] = []any{"host.ok"}
	}
	return app
}

// armList is one intent's arms: one plain arm, a guarded arm alone (it
// fails below its threshold), or a guarded arm before a fallback.
func (g *xgen) armList(in string) []xarm {
	arm := func(th int) xarm {
		a := xarm{th: th, target: g.pick(xTargets...)}
		if g.chance(50) {
			a.inc = 1 + g.rnd.IntN(2)
		}
		a.setWho = in == "need"
		a.setB = g.chance(20)
		if g.chance(15) {
			a.invokes = true
			g.s.host = true
		}
		return a
	}
	switch {
	case in == "gate" || g.chance(20):
		a := arm(1 + g.rnd.IntN(3))
		if g.chance(40) {
			a.hint = "needs n over " + fmt.Sprint(a.th)
		}
		if in != "gate" && g.chance(50) {
			return []xarm{a, arm(-1)}
		}
		return []xarm{a}
	}
	return []xarm{arm(-1)}
}

func (g *xgen) onYAML(owner string) m {
	on := m{}
	for in, arms := range g.s.arms[owner] {
		var list []any
		for _, a := range arms {
			y := m{"target": a.target}
			if a.th >= 0 {
				y["when"] = fmt.Sprintf("world.n > %d", a.th)
			}
			if a.hint != "" {
				y["guard_hint"] = a.hint
			}
			var eff []any
			if a.inc > 0 {
				eff = append(eff, m{"increment": m{"n": a.inc}})
			}
			if a.setWho {
				eff = append(eff, m{"set": m{"s": "{{ slots.who }}"}})
			}
			if a.setB {
				eff = append(eff, m{"set": m{"b": true}})
			}
			if a.invokes {
				eff = append(eff, m{"invoke": "host.ok", "with": m{"x": "{{ world.n }}"}, "bind": m{"r": "v"}})
			}
			if len(eff) > 0 {
				y["effects"] = eff
			}
			list = append(list, y)
		}
		on[in] = list
	}
	return on
}

func (g *xgen) stateYAML(path string) m {
	st := m{}
	if on := g.onYAML(path); len(on) > 0 {
		st["on"] = on
	}
	if g.s.term[path] {
		st["terminal"] = true
	}
	if v, ok := g.s.views[path]; ok {
		st["view"] = v + " n={{ world.n }} s={{ world.s }}"
	}
	return st
}

// xworld is the model's world: the story's keys.
type xworld struct {
	n    int
	s    string
	b    bool
	r    string
	seen bool // r was bound by a host call
}

// xresult is what the model predicts for one intent.
type xresult struct {
	state   string
	code    string   // rejection code, "" when accepted
	clarify bool     // a missing required slot on the orchestrator path
	allowed []string // the intents the start state takes
	calls   int      // host.ok calls
	arm     *xarm    // the arm taken
}

// owners lists the owner states an intent is looked up in, innermost
// first, for a resting state path.
func ownersOf(state string) []string {
	switch {
	case strings.HasPrefix(state, "p#"):
		return append(strings.Split(strings.TrimPrefix(state, "p#"), "|"), "p")
	case strings.HasPrefix(state, "c."):
		return []string{state, "c"}
	case state == "w":
		return nil // stepped by hand (gate)
	}
	return []string{state}
}

// resolve turns an arm's target into the resting path it lands on.
func resolve(target, from string) string {
	switch target {
	case ".":
		return from
	case "c":
		return "c.c1"
	case "p":
		return parStart
	case "@exit:out":
		return "__exit__out"
	case "p.ra.a2", "p.ra.a1":
		return strings.Replace(from, from[strings.Index(from, "p.ra."):strings.Index(from, "|")], target, 1)
	case "p.rb.b2":
		return strings.Replace(from, from[strings.Index(from, "p.rb."):], target, 1)
	}
	return target
}

// allowedIn is every intent some owner of state handles, sorted.
func (s *xstory) allowedIn(state string) []string {
	var out []string
	for _, o := range ownersOf(state) {
		for in := range s.arms[o] {
			if !slices.Contains(out, in) {
				out = append(out, in)
			}
		}
	}
	slices.Sort(out)
	return out
}

// step predicts one intent with slots from state and world (changed in
// place when accepted).
func (s *xstory) step(state string, w *xworld, in string, slots m, legacy, staged bool) xresult {
	if s.gate && state == "idle" && in == "wait" {
		// w's on_enter calls host.ok (no handler runs on the legacy
		// path) and emits go once r is bound; staged mode stops there
		res := xresult{state: "a", allowed: s.allowedIn(state), calls: 1}
		if legacy && w.r != "R" {
			res.state = "w"
		}
		if !legacy {
			w.r, w.seen = "R", true
			if s.decider == "human" || staged && s.decider != "llm" {
				res.state = "w"
			}
		}
		return res
	}
	res := xresult{state: state, allowed: s.allowedIn(state)}
	for _, o := range ownersOf(state) {
		arms, ok := s.arms[o][in]
		if !ok {
			continue
		}
		if _, text := slots["v"].(string); in == "opt" && text {
			res.code = "INVALID_SLOT_VALUE"
			return res
		}
		if in == "need" && slots["who"] == nil {
			if legacy {
				res.code = "MISSING_SLOTS"
			} else {
				res.clarify = true
			}
			return res
		}
		for _, a := range arms {
			if a.th >= 0 && w.n <= a.th {
				continue
			}
			w.n += a.inc
			if a.setWho {
				w.s = fmt.Sprint(slots["who"])
			}
			if a.setB {
				w.b = true
			}
			if a.invokes {
				res.calls++
				if !legacy {
					w.r, w.seen = "R", true
				}
			}
			res.state = resolve(a.target, state)
			res.arm = &a
			return res
		}
		res.code = "GUARD_FAILED"
		return res
	}
	res.code = "INTENT_NOT_ALLOWED_IN_STATE"
	return res
}

// terminal: a leaf with terminal: true or an exit.
func (s *xstory) terminal(state string) bool {
	return strings.HasPrefix(state, "__exit__") || s.term[state]
}

// view is the first word of the view state shows, or "".
func (s *xstory) view(state string) string {
	if strings.HasPrefix(state, "p#") {
		return s.views["p"]
	}
	return s.views[state]
}
