package main

// lostHops (part of -rare) draws emit_intent hops whose slots render NaN
// or ±Inf (an int key nz that stays 0: {{ 0 / world.nz }}) where
// upstream's log loses their machine.transition, so the session rests
// where the last logged move left it: in jobs' on_complete chains (-jobs'
// and the agent jobs') and in the on_enter of a timeout's target; now and
// then a finite one, which is logged. Their intent nf carries a slot v,
// set into the world key nh; every top-level state handles it, into a state no job is submitted from entering and that
// sends no nf on entry itself (conformance
// emit-slots-non-finite-landing).
func (x *rareGen) lostHops(app m) {
	states := app["states"].(m)
	w := app["world"].(m)
	w["nz"] = m{"type": "int", "default": 0}
	w["nh"] = m{"default": ""}
	app["intents"].(m)["nf"] = m{"description": "nf", "slots": m{"v": m{"type": "any"}}}
	hop := func() m {
		return m{"emit_intent": "nf", "slots": m{"v": x.pick("{{ 0 / world.nz }}", "{{ 1 / world.nz }}", "{{ -1 / world.nz }}", "{{ 0 / world.nz }}", "{{ world.nz }}")}}
	}
	sends := map[string]bool{}
	eachState("", states, func(path string, st m) {
		for _, l := range effectLists(st) {
			for _, e := range l {
				em, _ := e.(m)
				oc := asList(em["on_complete"])
				if len(oc) == 0 || !x.chance(50) {
					continue
				}
				at := x.rnd.IntN(len(oc) + 1)
				em["on_complete"] = append(oc[:at:at], append([]any{hop()}, oc[at:]...)...)
			}
		}
		to, _ := st["timeout"].(m)
		t, _ := to["target"].(string)
		if tg := stateAt(states, t); tg != nil && tg["terminal"] != true && x.chance(60) {
			tg["on_enter"] = append(asList(tg["on_enter"]), hop())
			sends[t] = true
		}
	})
	var aims []string
	for _, p := range x.paths {
		if !sends[p] && !x.submits[p] {
			aims = append(aims, p)
		}
	}
	if len(aims) == 0 {
		return
	}
	for _, k := range sortedKeys(states) {
		st := states[k].(m)
		on, _ := st["on"].(m)
		if on == nil {
			on = m{}
			st["on"] = on
		}
		on["nf"] = []any{m{"target": aims[x.rnd.IntN(len(aims))], "effects": []any{m{"set": m{"nh": "{{ slots.v }}"}}}}}
	}
}

// effectLists are a state's effect lists: its on_enter, on_exit and the
// effects of each of its arms.
func effectLists(st m) [][]any {
	out := [][]any{asList(st["on_enter"]), asList(st["on_exit"])}
	on, _ := st["on"].(m)
	for _, in := range sortedKeys(on) {
		for _, a := range asList(on[in]) {
			if arm, ok := a.(m); ok {
				out = append(out, asList(arm["effects"]))
			}
		}
	}
	return out
}
