package main

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// mutIntent is an intent a mutated turn may send: its declaration (nil
// for an intent an arm handles that no intents: block declares).
type mutIntent struct {
	name string
	decl *story.Intent
}

// mutStates lists every state path of st (imported children's states
// are not walked: their alias is a state of the parent).
func mutStates(st *story.Story) []string {
	var out []string
	var walk func(ss []*story.State)
	walk = func(ss []*story.State) {
		for _, s := range ss {
			out = append(out, s.Path)
			walk(s.Children)
		}
	}
	walk(st.States)
	return out
}

// parConfigs draws, for each parallel state of st, one configuration as
// a fixture's initial_state names it: root#leaf|leaf, a leaf of each
// region.
func (g *gen) parConfigs(st *story.Story) []string {
	var out []string
	var leaves func(s *story.State) []string
	leaves = func(s *story.State) []string {
		if len(s.Children) == 0 {
			return []string{s.Path}
		}
		var ls []string
		for _, c := range s.Children {
			ls = append(ls, leaves(c)...)
		}
		return ls
	}
	var walk func(ss []*story.State)
	walk = func(ss []*story.State) {
		for _, s := range ss {
			if s.Parallel && len(s.Children) > 0 {
				var pick []string
				for _, r := range s.Children {
					ls := leaves(r)
					pick = append(pick, ls[g.rnd.IntN(len(ls))])
				}
				out = append(out, s.Path+"#"+strings.Join(pick, "|"))
			}
			walk(s.Children)
		}
	}
	walk(st.States)
	return out
}

// mutIntents lists the intents of st: global, checkpoint, state-local,
// and the ones arms handle, each once, in a fixed order.
func mutIntents(st *story.Story) []mutIntent {
	seen := map[string]bool{}
	var out []mutIntent
	add := func(name string, d *story.Intent) {
		if seen[name] || name == "" || strings.ContainsAny(name, "*{") {
			return
		}
		seen[name] = true
		out = append(out, mutIntent{name, d})
	}
	for _, n := range st.IntentOrder {
		add(n, st.Intents[n])
	}
	for _, n := range slices.Sorted(maps.Keys(st.CheckpointIntents)) {
		add(n, st.CheckpointIntents[n])
	}
	var walk func(ss []*story.State)
	walk = func(ss []*story.State) {
		for _, s := range ss {
			for _, n := range s.IntentOrder {
				add(n, s.Intents[n])
			}
			for _, on := range s.On {
				add(on.Intent, nil)
			}
			walk(s.Children)
		}
	}
	walk(st.States)
	return out
}

// handledAt lists the intents of intents that an arm handles at the state
// path (or an ancestor, or a state below it, where the machine may rest),
// so that most turns sent there are taken; nil for an unknown path.
func handledAt(st *story.Story, path string, intents []mutIntent) []mutIntent {
	var at *story.State
	var find func(ss []*story.State)
	find = func(ss []*story.State) {
		for _, s := range ss {
			if s.Path == path {
				at = s
			}
			find(s.Children)
		}
	}
	find(st.States)
	if at == nil {
		return nil
	}
	has := map[string]bool{}
	for s := at; s != nil; s = s.Parent {
		for _, n := range s.OnNames() {
			has[n] = true
		}
	}
	var below func(s *story.State)
	below = func(s *story.State) {
		for _, c := range s.Children {
			for _, n := range c.OnNames() {
				has[n] = true
			}
			below(c)
		}
	}
	below(at)
	var out []mutIntent
	for _, in := range intents {
		if has[in.name] {
			out = append(out, in)
		}
	}
	return out
}

// mutFixture draws one fixture for cs from one of its real fixtures: the
// start state and initial_world perturbed, its turns mostly kept with
// their assertions mostly dropped, other intents sent between them,
// repeated turns, advance_clock turns, and its host handlers perturbed.
func (g *gen) mutFixture(cs *corpusStory) m {
	base := deepCopy(cs.fixtures[g.rnd.IntN(len(cs.fixtures))]).(m)
	out := m{}
	for _, k := range sortedKeys(base) {
		v := base[k]
		switch {
		case k == "turns", k == "initial_world", k == "host_handlers":
		case k == "expect_no_errors", k == "expect_terminal":
			if g.chance(15) {
				out[k] = v
			} else if base["host_cassette"] == nil && base["recording"] == nil && g.chance(10) {
				out[k] = v != true
			}
		case strings.HasPrefix(k, "expect_"):
			if g.chance(30) {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	states := append(mutStates(cs.model), g.parConfigs(cs.model)...)
	// diverged: the run may no longer pass where the real one did, so a
	// free-text input the recording answers only there is dropped (a
	// recording miss ends the whole run)
	diverged := false
	if g.chance(20) && len(states) > 0 {
		out["initial_state"] = states[g.rnd.IntN(len(states))]
		diverged = true
	}
	out["initial_world"] = g.mutWorld(cs.model, base["initial_world"])
	if bw, _ := base["initial_world"].(m); !reflect.DeepEqual(out["initial_world"], bw) && !(len(bw) == 0 && len(out["initial_world"].(m)) == 0) {
		diverged = true
	}
	if hh, ok := base["host_handlers"].(m); ok {
		out["host_handlers"] = g.mutHandlers(hh)
	}
	if hh, ok := out["host_handlers"].(m); ok {
		stubRealHosts(cs.model, hh)
	} else if base["host_cassette"] == nil && base["recording"] == nil && g.chance(10) {
		out["host_handlers"] = m{"host.run": m{"data": m{"ok": true, "exit_code": 0, "stdout": "mutated"}}}
	}
	// upstream ends the whole run on an advance_clock on the legacy path,
	// while a job waits for a clarification answer, or when it makes a
	// fixture with recorded free-text turns run on the orchestrator path
	// (documented: docs/compat/flowtest.md)
	noClock := base["use_orchestrator"] == false || base["recording"] != nil ||
		strings.Contains(fmt.Sprint(base["host_handlers"]), "request_clarification")
	intents := mutIntents(cs.model)
	// at is where the real fixture says the machine rests, as far as it
	// says: most inserted turns send an intent handled there
	at, _ := out["initial_state"].(string)
	pickFrom := func() []mutIntent {
		if h := handledAt(cs.model, at, intents); len(h) > 0 && g.chance(75) {
			return h
		}
		return intents
	}
	// a job's delay runs in real time upstream (docs/compat/flowtest.md):
	// a turn before the advance_clock that passes it races the job, and
	// an inserted turn may submit one, so with delays no turn is inserted
	// and every advance_clock turn is kept
	delays := strings.Contains(fmt.Sprint(base["host_handlers"]), "delay")
	var turns []any
	for _, t := range base["turns"].([]any) {
		tm, ok := t.(m)
		if !ok {
			turns = append(turns, t)
			continue
		}
		_, advances := tm["advance_clock"]
		for !delays && g.chance(15) && len(intents) > 0 {
			turns = append(turns, g.mutTurn(pickFrom(), states))
			diverged = true
		}
		if !noClock && !delays && g.chance(10) {
			turns = append(turns, m{"advance_clock": g.pick("1s", "30s", "5m", "2h")})
			diverged = true
		}
		if _, free := tm["input"]; free && diverged {
			continue
		}
		if es, ok := tm["expect_state"].(string); ok {
			at = es
		}

		if g.chance(85) || delays && advances {
			kt, changed := g.keepTurn(tm, states)
			turns = append(turns, kt)
			diverged = diverged || changed
		} else {
			diverged = true
		}
		if !delays && g.chance(10) {
			kt, _ := g.keepTurn(tm, states)
			turns = append(turns, kt)
			diverged = true
		}
	}
	for range g.rnd.IntN(5) {
		if len(intents) > 0 && !delays {
			turns = append(turns, g.mutTurn(pickFrom(), states))
		}
	}
	if len(turns) == 0 {
		turns = append(turns, m{"intent": m{"name": "no_such_intent"}})
	}
	out["turns"] = turns
	return out
}

// keepTurn keeps a real turn with most of its assertions dropped and a
// few perturbed; changed reports that its intent's slots were.
func (g *gen) keepTurn(t m, states []string) (out m, changed bool) {
	out = m{}
	for _, k := range sortedKeys(t) {
		v := t[k]
		switch {
		case k == "intent":
			if im, ok := v.(m); ok && g.chance(15) {
				out[k], changed = g.mutSlotsOf(im), true
			} else {
				out[k] = v
			}
		case k == "expect_state":
			switch {
			case g.chance(15):
				out[k] = v
			case g.chance(3) && len(states) > 0:
				out[k] = states[g.rnd.IntN(len(states))]
			}
		case k == "expect_world":
			if wm, ok := v.(m); ok && g.chance(15) {
				w := deepCopy(wm).(m)
				if g.chance(30) {
					for _, wk := range sortedKeys(w) {
						w[wk] = g.scalarLike(w[wk])
						break
					}
				}
				out[k] = w
			}
		case strings.HasPrefix(k, "expect_"):
			if g.chance(12) {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	return out, changed
}

// mutSlotsOf perturbs the slots of a real turn's intent: one dropped,
// one retyped, or one extra.
func (g *gen) mutSlotsOf(im m) m {
	out := deepCopy(im).(m)
	sl, _ := out["slots"].(m)
	if sl == nil {
		sl = m{}
	}
	keys := sortedKeys(sl)
	switch {
	case len(keys) > 0 && g.chance(35):
		delete(sl, keys[g.rnd.IntN(len(keys))])
	case len(keys) > 0 && g.chance(50):
		k := keys[g.rnd.IntN(len(keys))]
		sl[k] = g.scalarLike(sl[k])
	default:
		sl["extra_slot"] = g.pick("x", "1", "true")
	}
	out["slots"] = sl
	return out
}

// mutTurn sends one of the story's intents with slots drawn from its
// declaration.
func (g *gen) mutTurn(intents []mutIntent, states []string) m {
	in := intents[g.rnd.IntN(len(intents))]
	slots := m{}
	if in.decl != nil {
		for _, sn := range in.decl.SlotOrder {
			s := in.decl.Slots[sn]
			switch {
			case g.chance(10):
			case g.chance(10):
				slots[sn] = g.wrongType(s.Type)
			case len(s.Values) > 0 && g.chance(85):
				slots[sn] = s.Values[g.rnd.IntN(len(s.Values))]
			default:
				slots[sn] = g.valueOf(s.Type, s.Examples)
			}
		}
	}
	if g.chance(8) {
		slots["extra_slot"] = "x"
	}
	t := m{"intent": m{"name": in.name, "slots": slots}}
	if g.chance(8) && len(states) > 0 {
		t["expect_state"] = states[g.rnd.IntN(len(states))]
	}
	return t
}

// valueOf draws a value of a declared type, an example when there is one.
func (g *gen) valueOf(typ string, examples []any) any {
	if len(examples) > 0 && g.chance(50) {
		return examples[g.rnd.IntN(len(examples))]
	}
	switch typ {
	case "int", "integer":
		return []any{0, 1, 2, 3, -1, 7, 100}[g.rnd.IntN(7)]
	case "float", "number":
		return []any{0.5, 1.0, 2, -3.25}[g.rnd.IntN(4)]
	case "bool", "boolean":
		return g.chance(50)
	case "list", "array":
		return []any{"a", "b"}
	case "object", "map":
		return m{"k": "v"}
	}
	return g.pick("north", "yes", "abc", "", "ünïcödé ✓", strings.Repeat("long ", 60), "0", "true", "null")
}

// wrongType draws a value not of typ.
func (g *gen) wrongType(typ string) any {
	switch typ {
	case "int", "integer", "float", "number":
		return g.pick("seven", "", "1.5x")
	case "bool", "boolean":
		return []any{"yes", 1, "maybe"}[g.rnd.IntN(3)]
	case "list", "array", "object", "map":
		return "scalar"
	}
	return []any{42, true, []any{"x"}, m{"a": 1}, nil, 1.5}[g.rnd.IntN(6)]
}

// scalarLike replaces v by a value of another type or form.
func (g *gen) scalarLike(v any) any {
	switch x := v.(type) {
	case string:
		return []any{42, true, nil, "", x + " changed"}[g.rnd.IntN(5)]
	case int, float64, uint64, int64:
		return []any{"3", 0, -1, 2.5, nil}[g.rnd.IntN(5)]
	case bool:
		return []any{!x, "true", 0, nil}[g.rnd.IntN(4)]
	case nil:
		return g.pick("", "x")
	}
	return []any{"scalar", nil, []any{}, m{}}[g.rnd.IntN(4)]
}

// mutWorld perturbs a real initial_world: keys dropped, retyped, set to
// null, and world keys of the schema added with values drawn from their
// type, values: or default.
func (g *gen) mutWorld(st *story.Story, base any) m {
	w, _ := deepCopy(base).(m)
	if w == nil {
		w = m{}
	}
	for _, k := range sortedKeys(w) {
		switch {
		case g.chance(6):
			delete(w, k)
		case g.chance(3):
			w[k] = g.scalarLike(w[k])
		case g.chance(1):
			w[k] = nil
		}
	}
	for _, wv := range st.World {
		if !g.chance(12) {
			continue
		}
		switch {
		case len(wv.Values) > 0 && g.chance(70):
			w[wv.Name] = wv.Values[g.rnd.IntN(len(wv.Values))]
		case g.chance(5):
			w[wv.Name] = g.wrongType(wv.Type)
		case wv.HasDefault && g.chance(30):
			w[wv.Name] = deepCopy(wv.Default)
		default:
			w[wv.Name] = g.valueOf(wv.Type, nil)
		}
	}
	return w
}

// stubRealHosts stubs, with an error, every host the story declares or
// an interface defaults to that can touch the working directory and that
// hh leaves unstubbed: a turn the real fixture never took may reach it,
// and upstream runs real handlers (git, shell commands) in the directory
// compare.sh runs in — once its host.git.commit committed there.
func stubRealHosts(st *story.Story, hh m) {
	names := slices.Clone(st.Hosts)
	for _, n := range slices.Sorted(maps.Keys(st.HostInterfaces)) {
		names = append(names, st.HostInterfaces[n].Default)
	}
	harmless := []string{"host.inbox", "host.jobs", "host.starlark", "host.agent", "host.artifacts_dir"}
	for _, d := range names {
		if d == "" || slices.ContainsFunc(harmless, func(h string) bool { return d == h || strings.HasPrefix(d, h+".") }) {
			continue
		}
		if !slices.ContainsFunc(sortedKeys(hh), func(k string) bool { return k == d || strings.HasPrefix(d, k+".") || strings.HasPrefix(k, d+".") }) {
			hh[d] = m{"error": "gen mutate: " + d + " is not stubbed"}
		}
	}
}

// mutHandlers perturbs real host handlers: a handler replaced by an error
// or infra error, data fields dropped or retyped, an unlisted handler
// added.
func (g *gen) mutHandlers(hh m) m {
	// no stub is dropped and no by_call/by_op key renamed: a call left
	// unstubbed reaches the real handler, and upstream's run in the
	// checkout (host.git.commit) committed there once
	out := deepCopy(hh).(m)
	for _, n := range sortedKeys(out) {
		h, ok := out[n].(m)
		if !ok {
			continue
		}
		switch {
		case g.chance(8):
			out[n] = m{"error": "mutated failure of " + n}
			continue
		case g.chance(4):
			out[n] = m{"infra_error": "mutated outage of " + n}
			continue
		}
		g.mutEnvelope(h)
		// delays stay as written: a job that ends at once, or two ending
		// in one advance_clock, land in a random order upstream
		for _, key := range []string{"by_call", "by_op"} {
			bc, ok := h[key].(m)
			if !ok {
				continue
			}
			for _, c := range sortedKeys(bc) {
				switch {
				case g.chance(6):
					bc[c] = m{"error": "mutated failure of " + c}
				case g.chance(3):
					bc[c] = m{"infra_error": "mutated outage of " + c}
				default:
					if e, ok := bc[c].(m); ok {
						g.mutEnvelope(e)
					}
				}
			}
		}
	}
	if g.chance(8) {
		out["host.unlisted"] = m{"data": m{"ok": true}}
	}
	return out
}

// mutEnvelope drops or retypes a field of an answer's data (one level
// into a nested map too).
func (g *gen) mutEnvelope(e m) {
	d, ok := e["data"].(m)
	if !ok || !g.chance(30) {
		return
	}
	var fields []string
	for _, k := range sortedKeys(d) {
		fields = append(fields, k)
		if sub, ok := d[k].(m); ok {
			for _, sk := range sortedKeys(sub) {
				fields = append(fields, k+"."+sk)
			}
		}
	}
	if len(fields) == 0 {
		return
	}
	f := fields[g.rnd.IntN(len(fields))]
	holder, key := d, f
	if i := strings.IndexByte(f, '.'); i >= 0 {
		holder, key = d[f[:i]].(m), f[i+1:]
	}
	if g.chance(50) {
		delete(holder, key)
	} else {
		holder[key] = g.scalarLike(holder[key])
	}
}

// deepCopy copies maps and lists of a decoded YAML value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case m:
		out := make(m, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
