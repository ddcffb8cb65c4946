package main

import (
	"math/rand/v2"
)

// -gates (flow and legacy kinds) adds, after every other draw (-extras and
// -more included) and from its own random source (so a seed writes the
// same story otherwise), the decision gates of story-runtime §1.9 that only
// the small expect and agent kinds draw, here among compounds, parallel
// states, an imported child, timeouts, jobs and on_error landings:
//   - decider: human or llm on states of every kind (leaves, compounds,
//     the parallel root and its regions, the imported child's states): a
//     human pin stops an emit chain at a gate before and after the calls;
//   - hidden: true on ping or put, the intents the emits send (the staged
//     stop's exception at the origin state);
//   - literal emit_intent entries in on_enter lists naming one of the
//     state's own intents other than ping, which that state then no longer
//     counts as a forward move of its gate;
//   - mode: staged (or one-shot spelled out) on the fixture, which stops
//     the post-bind pass at a gate (the legacy path ignores it).
type gateGen struct {
	rnd *rand.Rand
}

func newGateGen(seed uint64) *gateGen {
	return &gateGen{rnd: rand.New(rand.NewPCG(seed^0xd6e8feb86659fd93, seed+0xa0761d6478bd642f))}
}

func (x *gateGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *gateGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }

// apply adds the draws to the story, its imported child (or nil) and its
// fixture.
func (x *gateGen) apply(app, kid, fixture m) {
	x.walk(app["states"].(m))
	if kid != nil {
		x.walk(kid["states"].(m))
	}
	if intents, ok := app["intents"].(m); ok {
		for _, in := range []string{"ping", "put"} {
			if d, ok := intents[in].(m); ok && x.chance(30) {
				d["hidden"] = true
			}
		}
	}
	switch x.rnd.IntN(4) {
	case 0, 1:
		fixture["mode"] = "staged"
	case 2:
		fixture["mode"] = x.pick("one-shot", "oneshot", "")
	}
}

// walk pins deciders and adds literal emits on every state under states.
func (x *gateGen) walk(states m) {
	eachState("", states, func(_ string, st m) {
		if x.chance(35) {
			st["decider"] = x.pick("human", "human", "llm")
		}
		if on, ok := st["on"].(m); ok && x.chance(20) {
			var names []string
			for _, in := range sortedKeys(on) {
				if in != "ping" && in != "put" && in != "*" {
					names = append(names, in)
				}
			}
			if len(names) > 0 {
				e := m{"emit_intent": names[x.rnd.IntN(len(names))]}
				if x.chance(50) {
					e["when"] = x.pick("world.n > 1", "world.r != ''", "world.last_error != ''")
				}
				st["on_enter"] = append(asList(st["on_enter"]), e)
			}
		}
	})
}
