package main

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// -shapes (flow and legacy kinds) writes effect entries whose keys no
// other draw puts together, after every other draw and from its own
// random source. An inventory of the effect shapes (the key sets of one
// entry) in the corpus and the reference against every kind's draws left
// these out, though story-format.md §5.2 and story-runtime.md §1.7 and
// §2.4 say how each runs:
//   - once: true on a call that fails, with an on_error (and an id), over
//     a bind target set or unset;
//   - emit: riding a failing call, with and without on_error;
//   - emit_intent sharing an entry with a set, increment, say or call
//     (the hop is handled apart from the entry's first kind);
//   - two kinds of one entry where only the first runs (say over invoke,
//     increment over a failing invoke, set over increment);
//   - emit: and emit_intent in one entry;
//   - on_complete entries holding a target beside inline effects: (a
//     set: or say: beside a target does not load).
//
// Only the story's own states draw (an imported child's hosts are its
// own); emit_intent names ping, and only where the state or an ancestor
// handles it (-wide's third region does not: the story would not load).
// As -jobs's and -redirects's, no on_error or on_complete target drawn
// names a state entering which submits a job (its on_enter's or an
// ancestor's; the child's): a job submitted inside a clock drain aborts
// the run upstream.
type shapeGen struct {
	rnd    *rand.Rand
	leaves []string
}

func newShapeGen(seed uint64, leaves []string) *shapeGen {
	return &shapeGen{rnd: rand.New(rand.NewPCG(seed^0x3c6ef372fe94f82b, seed+0xa54ff53a5f1d36f1)), leaves: leaves}
}

func (x *shapeGen) chance(pct int) bool { return x.rnd.IntN(100) < pct }
func (x *shapeGen) pick(xs ...string) string {
	return xs[x.rnd.IntN(len(xs))]
}

// target is a leaf or a stay, as the base draw's on_error targets are.
func (x *shapeGen) target() string {
	if x.chance(10) {
		return "."
	}
	return x.leaves[x.rnd.IntN(len(x.leaves))]
}

func (x *shapeGen) event() string { return x.pick("ping", "go1", "go2", "go3") }

// hop is an emit_intent value: ping, or ping when a guard of the world
// holds (an empty render emits nothing).
func (x *shapeGen) hop() string {
	return x.pick("ping", "{{ world.n > 2 ? 'ping' : '' }}", "{{ world.r != '' ? 'ping' : '' }}")
}

// apply draws on every state of the story; kid is its imported child or nil.
func (x *shapeGen) apply(app, kid m) {
	x.leaves = slices.DeleteFunc(slices.Clone(x.leaves), func(p string) bool { return submitsOnEntry(app, kid, p) })
	if len(x.leaves) == 0 {
		x.leaves = []string{"."}
	}
	x.walk(app["states"].(m))
}

// submitsOnEntry reports whether entering path from outside runs an
// on_enter that submits a background job: the state's own, an
// ancestor's, a state its initial: chain descends into, another region's
// of a parallel ancestor (entered with it), or, for "kid", any of the
// child's.
func submitsOnEntry(app, kid m, path string) bool {
	if path == "kid" {
		return kid != nil && strings.Contains(mustYAML(kid["states"]), "background: true")
	}
	states, _ := app["states"].(m)
	segs := strings.Split(path, ".")
	for i, k := range segs {
		st, _ := states[k].(m)
		if st == nil {
			return false
		}
		if submitsHere(st) {
			return true
		}
		states, _ = st["states"].(m)
		if i == len(segs)-1 {
			return submitsBelow(st)
		}
		if st["type"] == "parallel" {
			for _, r := range sortedKeys(states) {
				if rs, ok := states[r].(m); ok && r != segs[i+1] && (submitsHere(rs) || submitsBelow(rs)) {
					return true
				}
			}
		}
	}
	return false
}

// submitsHere reports whether st's own on_enter submits a job.
func submitsHere(st m) bool {
	for _, e := range asList(st["on_enter"]) {
		if em, ok := e.(m); ok && em["background"] == true {
			return true
		}
	}
	return false
}

// submitsBelow reports whether entering st runs a submitting on_enter
// below it: its initial: child's (descending), or every region's of a
// parallel st.
func submitsBelow(st m) bool {
	ch, _ := st["states"].(m)
	if ch == nil {
		return false
	}
	names := sortedKeys(ch)
	if st["type"] != "parallel" {
		in, _ := st["initial"].(string)
		names = []string{in}
	}
	for _, k := range names {
		if c, ok := ch[k].(m); ok && (submitsHere(c) || submitsBelow(c)) {
			return true
		}
	}
	return false
}

// walk draws on states; pinged: the state or an ancestor handles ping.
func (x *shapeGen) walk(states m) {
	eachStateWith("", states, false, func(_ string, st m, pinged bool) bool {
		on, _ := st["on"].(m)
		hops := pinged || on["ping"] != nil
		x.effects(st, "on_enter", hops)
		for _, in := range sortedKeys(on) {
			for _, a := range asList(on[in]) {
				if arm, ok := a.(m); ok {
					x.effects(arm, "effects", hops)
				}
			}
		}
		return hops
	})
}

// effects merges keys into holder[key]'s entries, extends its
// on_complete chains, and at times adds a drawn entry; hops: the state
// handles ping, so an emit_intent may be drawn.
func (x *shapeGen) effects(holder m, key string, hops bool) {
	list := asList(holder[key])
	for _, e := range list {
		em, ok := e.(m)
		if !ok {
			continue
		}
		if hops && em["emit_intent"] == nil && em["on_complete"] == nil && x.chance(15) {
			em["emit_intent"] = x.hop()
		}
		if oc := asList(em["on_complete"]); oc != nil && x.chance(40) {
			em["on_complete"] = append(oc, x.completion())
		}
	}
	if x.chance(35) {
		list = append(list, x.entry(hops))
	}
	if len(list) > 0 {
		holder[key] = list
	}
}

// completion is an on_complete entry with a target beside inline
// effects: (a set:, say: or call beside a target does not load).
func (x *shapeGen) completion() m {
	e := m{"target": x.leaves[x.rnd.IntN(len(x.leaves))],
		"effects": []any{m{"set": m{"s": "{{ world.s }}IN"}}, m{"increment": m{"n": 1}}}}
	if x.chance(40) {
		e["when"] = x.pick("world.n > 1", "world.last_job_status == 'done'")
	}
	return e
}

// entry is an effect entry of a shape no other draw writes; hops: it may
// carry an emit_intent.
func (x *shapeGen) entry(hops bool) m {
	e := x.shape()
	if !hops {
		delete(e, "emit_intent") // the shape less its hop
	}
	return e
}

func (x *shapeGen) shape() m {
	switch x.rnd.IntN(8) {
	case 0, 1:
		e := m{"invoke": x.pick("host.bad", "host.bad", "host.ok"), "with": m{"x": "{{ world.n }}"}, "once": true,
			"bind": m{"r": "v"}, "on_error": x.target()}
		if x.chance(50) {
			e["id"] = x.pick("c1", "c2")
		}
		if x.chance(25) {
			e["when"] = x.pick("world.n > 1", "world.r == ''")
		}
		return e
	case 2:
		e := m{"invoke": "host.bad", "with": m{"x": "1"}, "emit": x.event()}
		if x.chance(70) {
			e["on_error"] = x.target()
		}
		return e
	case 3:
		return m{"invoke": "host.ok", "with": m{"x": "{{ world.s }}"}, "emit": x.event(), "emit_intent": x.hop()}
	case 4:
		return m{"say": "first {{ world.n }}", "invoke": "host.ok", "bind": m{"r": "v"}}
	case 5:
		return m{"increment": m{"n": 2}, "invoke": "host.bad", "on_error": x.target()}
	case 6:
		return m{"set": m{"s": "{{ world.s }}S"}, "increment": m{"n": 1}, "emit_intent": x.hop()}
	}
	return m{"emit": x.event(), "emit_intent": x.hop(), "when": x.pick("world.n > 0", "world.b", "world.s == ''")}
}
