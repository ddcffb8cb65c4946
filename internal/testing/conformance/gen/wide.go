package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// -wide (flow and legacy kinds) adds, from its own random source, emit
// waves over a parallel state of three regions (story-runtime.md §3.4,
// §3.5):
//   - the parallel root p (written when the story has none) gets a third
//     region rc (d1, d2; d2 at times terminal: a region's terminal leaf
//     ends nothing);
//   - the wave intents w1..w3 on the region leaves and now and then on a
//     region compound (an ancestor's arm): guarded and plain arms to a
//     sibling or a stay (a receiver's arm out of the region or to the root
//     makes a path upstream corrupts: docs/compat/engine.md, a known
//     difference), with set:/increment effects and emit: of waves, as the
//     transition's list or effect entries, mostly forward (w1 to w2 to
//     w3) and at times backward, so that one user turn moves several
//     regions, a receiver re-emits, and a cycle meets the depth cap (24);
//   - w1 (and at times w2, w3) into p on the top-level leaves and c's;
//   - fixture turns sending the waves (and go1/ping) after the first.
type wideGen struct {
	rnd    *rand.Rand
	trail  bool
	legacy bool
}

func newWideGen(seed uint64, trail, legacy bool) *wideGen {
	return &wideGen{rnd: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x9fb21c651e98df25)), trail: trail, legacy: legacy}
}

func (x *wideGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *wideGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }

var waves = []string{"w1", "w2", "w3"}

func (x *wideGen) apply(app, fixture m) {
	states := app["states"].(m)
	intents := app["intents"].(m)
	for _, w := range waves {
		intents[w] = m{"description": "wave " + w}
	}
	p, ok := states["p"].(m)
	if !ok {
		p = m{"type": "parallel", "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{"a1": m{"view": "A1"}, "a2": m{"view": "A2"}}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{"b1": m{"view": "B1"}, "b2": m{"view": "B2"}}},
		}}
		states["p"] = p
	}
	regions := p["states"].(m)
	d2 := m{"view": "D2 s={{ world.s }}"}
	if x.chance(15) {
		d2["terminal"] = true
	}
	regions["rc"] = m{"type": "compound", "initial": "d1", "states": m{"d1": m{"view": "D1 n={{ world.n }}"}, "d2": d2}}
	if x.trail {
		x.markEnter("p.rc", regions["rc"].(m))
		x.markEnter("p.rc.d1", regions["rc"].(m)["states"].(m)["d1"].(m))
		x.markEnter("p.rc.d2", d2)
	}
	for _, rn := range sortedKeys(regions) {
		r := regions[rn].(m)
		kids := r["states"].(m)
		names := sortedKeys(kids)
		for _, k := range names {
			kid := kids[k].(m)
			if _, compound := kid["states"]; compound {
				continue
			}
			for _, w := range waves {
				if x.chance(85) {
					x.addArms(kid, "p."+rn+"."+k, w, "p."+rn, names)
				}
			}
		}
		if x.chance(25) {
			x.addArms(r, "p."+rn, x.pick(waves...), "p."+rn, names)
		}
	}
	// w1 enters p from every top-level leaf and c's leaves (a region
	// leaf named from outside makes a path upstream corrupts: a known
	// difference)
	outside := []m{}
	for _, s := range []string{"s0", "s1", "s2", "s3"} {
		if st, ok := states[s].(m); ok {
			outside = append(outside, st)
		}
	}
	if c, ok := states["c"].(m); ok {
		for _, k := range sortedKeys(c["states"].(m)) {
			outside = append(outside, c["states"].(m)[k].(m))
		}
	}
	for i, st := range outside {
		on := onOf(st)
		for _, w := range waves {
			if on[w] == nil && (w == "w1" || x.chance(30)) {
				arm := m{"target": "p"}
				x.mark(arm, fmt.Sprintf("o%d.%s", i, w))
				on[w] = []any{arm}
			}
		}
	}
	x.fixture(fixture)
}

// onOf is st's on: map, written when it has none.
func onOf(st m) m {
	on, ok := st["on"].(m)
	if !ok {
		on = m{}
		st["on"] = on
	}
	return on
}

// addArms gives the state at path (in region, whose children are sibs)
// arms for wave w, unless it has some.
func (x *wideGen) addArms(st m, path, w, region string, sibs []string) {
	on := onOf(st)
	if on[w] != nil {
		return
	}
	// no target outside the region: a receiver's arm that leaves it
	// makes a path upstream corrupts (a known difference)
	target := func() string {
		if x.chance(35) {
			return "."
		}
		return region + "." + sibs[x.rnd.IntN(len(sibs))]
	}
	var list []any
	if x.chance(30) {
		g := m{"when": x.pick("world.n > 1", "world.s != ''", "world.b"), "target": target(),
			"effects": []any{m{"increment": m{"n": 1}}}}
		x.emit(g, w)
		x.mark(g, path+"."+w)
		list = append(list, g)
	}
	arm := m{"target": target()}
	var effs []any
	if x.chance(60) {
		effs = append(effs, m{"set": m{"s": fmt.Sprintf("{{ world.s }}%s%s", path[len(path)-2:], w[1:])}})
	}
	if x.chance(30) {
		effs = append(effs, m{"increment": m{"n": 1 + x.rnd.IntN(2)}})
	}
	if len(effs) > 0 {
		arm["effects"] = effs
	}
	x.emit(arm, w)
	x.mark(arm, path+"."+w)
	list = append(list, arm)
	on[w] = list
}

// emit adds, most of the time, one or two waves after w (at times any
// wave, a cycle the depth cap ends) to arm: the transition's emit: list
// or effect entries.
func (x *wideGen) emit(arm m, w string) {
	if !x.chance(65) {
		return
	}
	i := slices.Index(waves, w)
	var evs []string
	for range 1 + x.rnd.IntN(2) {
		switch {
		case x.chance(15):
			evs = append(evs, x.pick(waves...))
		case i+1 < len(waves):
			evs = append(evs, waves[i+1+x.rnd.IntN(len(waves)-i-1)])
		}
	}
	if len(evs) == 0 {
		return
	}
	if x.chance(50) {
		l := []any{}
		for _, e := range evs {
			l = append(l, e)
		}
		arm["emit"] = l
		return
	}
	for _, e := range evs {
		arm["effects"] = append(asList(arm["effects"]), m{"emit": e})
	}
}

// mark appends the trail mark T:<at>; to arm's effects (-trail).
func (x *wideGen) mark(arm m, at string) {
	if x.trail {
		arm["effects"] = append(asList(arm["effects"]), m{"set": m{"t": "{{ world.t + 'T:" + at + ";' }}"}})
	}
}

// markEnter appends E:<path>; to st's on_enter (-trail).
func (x *wideGen) markEnter(path string, st m) {
	st["on_enter"] = append(asList(st["on_enter"]), m{"set": m{"t": "{{ world.t + 'E:" + path + ";' }}"}})
}

// fixture inserts, after the first turn, a wave into p and three to six
// waves (with go1 and ping now and then).
func (x *wideGen) fixture(f m) {
	turns := asList(f["turns"])
	at := min(1, len(turns))
	add := []any{m{"intent": m{"name": "w1", "slots": m{}}}}
	for range 4 + x.rnd.IntN(5) {
		name := x.pick("w1", "w2", "w3", "w1", "w2", "w3", "w2", "w3", "go1", "ping")
		add = append(add, m{"intent": m{"name": name, "slots": m{}}})
	}
	turns = append(turns[:at], append(add, turns[at:]...)...)
	f["turns"] = turns
}
