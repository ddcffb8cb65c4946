package main

import (
	"math/rand/v2"
)

// -override (flow and legacy kinds) adds, after every other draw and from
// its own random source (so a seed writes the same story otherwise),
// world_override: on the fixture's turns (flow-format §3.1), which only
// the small expect, agent and intent kinds draw: written before the
// machine on the legacy path, as a side-channel turn on the orchestrator
// path, here among guards, templated emits, timeouts, jobs and an
// imported child. The keys are the story's own (n, b, s, r, the scalar
// forms, the trail t), the engine's (last_error, host_error), the child's
// projected counter (kid__m), an undeclared one, and o when -more drew
// it; the values are of the key's type and of other types, in the YAML
// forms of forms.go. A clock-only turn gets one at times too (upstream
// never writes it there).
type overrideGen struct {
	rnd *rand.Rand
	g   *gen // for its scalar forms, drawn from this source
}

func newOverrideGen(seed uint64) *overrideGen {
	x := &overrideGen{rnd: rand.New(rand.NewPCG(seed^0x85ebca6b0c2b2ae3, seed+0xc2b2ae3d27d4eb4f))}
	x.g = &gen{rnd: x.rnd}
	return x
}

func (x *overrideGen) chance(pct int) bool { return x.rnd.IntN(100) < pct }

// value is a value for world key k: of its type or not.
func (x *overrideGen) value(k string) any {
	if x.chance(30) {
		return x.g.form()
	}
	switch k {
	case "n":
		return []any{0, 3, 5, 101, "5", 2.5, -1}[x.rnd.IntN(7)]
	case "b":
		return []any{true, false, "true", 1}[x.rnd.IntN(4)]
	case "s", "t":
		return []any{"", "hi", "T:x;", 3}[x.rnd.IntN(4)]
	case "r":
		return []any{"", "R", "s1", "c"}[x.rnd.IntN(4)]
	case "last_error":
		return []any{"", "old", nil}[x.rnd.IntN(3)]
	case "host_error":
		return []any{nil, m{"message": "old", "namespace": "host.bad"}}[x.rnd.IntN(2)]
	case "o":
		return []any{"", 0, false, m{}, []any{}, "x"}[x.rnd.IntN(6)]
	case "kid__m":
		return []any{0, 7, "7"}[x.rnd.IntN(3)]
	}
	return x.g.form()
}

// apply adds overrides to the fixture's turns; o: the story declares o
// (-more).
func (x *overrideGen) apply(app, fixture m) {
	keys := []string{"n", "n", "b", "s", "r", "r", "x0", "x1", "x2", "t", "last_error", "last_error", "host_error", "zz_undeclared"}
	if _, ok := app["world"].(m)["o"]; ok {
		keys = append(keys, "o")
	}
	if _, ok := app["imports"]; ok {
		keys = append(keys, "kid__m")
	}
	for _, t := range asList(fixture["turns"]) {
		turn, ok := t.(m)
		if !ok {
			continue
		}
		_, intent := turn["intent"]
		if !intent && !x.chance(15) || intent && !x.chance(35) {
			continue
		}
		ov := m{}
		for range 1 + x.rnd.IntN(2) {
			k := keys[x.rnd.IntN(len(keys))]
			ov[k] = x.value(k)
		}
		turn["world_override"] = ov
	}
}
