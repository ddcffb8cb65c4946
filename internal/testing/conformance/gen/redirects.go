package main

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// -redirects (flow and legacy kinds) aims failing calls' on_error at the
// places a redirect is measured from (story-runtime.md §2.4, §5), after
// every other draw and from its own random source: the state declaring
// the call, its parent, the origin of a background job (the state whose
// on_enter or arm submits it), ".", "..", the parallel root and a region
// leaf. It re-aims the on_error of the host.bad calls drawn elsewhere,
// adds a host.bad with such an on_error to on_complete chains (after an
// emit_intent hop, so the chain has moved when it fails) and to the
// on_enter of a state or two that targets land on. No on_error names a
// state whose on_enter submits a job: a job submitted inside a clock drain
// aborts the run upstream (flow-format §5.2). Found the rule of
// conformance oncomplete-redirect-origin.
type redirectGen struct {
	rnd     *rand.Rand
	paths   []string
	submits map[string]bool // states whose on_enter submits a job
	origins []string        // states declaring an on_complete
}

func newRedirectGen(seed uint64) *redirectGen {
	return &redirectGen{rnd: rand.New(rand.NewPCG(seed^0x6a09e667f3bcc908, seed+0xbb67ae8584caa73b)), submits: map[string]bool{}}
}

func (x *redirectGen) chance(pct int) bool { return x.rnd.IntN(100) < pct }

// apply re-aims and adds the redirects of the story's states (an imported
// child is left alone: its hosts are its own).
func (x *redirectGen) apply(app m) {
	states := app["states"].(m)
	collectPaths(states, &x.paths)
	x.survey("", states)
	x.walk("", states)
	for range 1 + x.rnd.IntN(2) {
		p := x.paths[x.rnd.IntN(len(x.paths))]
		st := stateAt(states, p)
		if st == nil || x.submits[p] || st["type"] == "parallel" {
			continue
		}
		st["on_enter"] = append(asList(st["on_enter"]), x.bad(p, x.origin()))
	}
}

// survey finds the states whose on_enter submits a job and the states
// declaring an on_complete.
func (x *redirectGen) survey(prefix string, states m) {
	eachState(prefix, states, func(p string, st m) {
		for _, e := range asList(st["on_enter"]) {
			if em, ok := e.(m); ok && em["background"] == true {
				x.submits[p] = true
			}
		}
		if strings.Contains(mustYAML(st["on_enter"])+mustYAML(st["on"]), "on_complete") {
			x.origins = append(x.origins, p)
		}
	})
}

func (x *redirectGen) walk(prefix string, states m) {
	eachState(prefix, states, func(p string, st m) {
		x.effects(p, asList(st["on_enter"]), "")
		if on, ok := st["on"].(m); ok {
			for _, ik := range sortedKeys(on) {
				for _, a := range asList(on[ik]) {
					if am, ok := a.(m); ok {
						x.effects(p, asList(am["effects"]), "")
					}
				}
			}
		}
	})
}

// effects re-aims the list's host.bad redirects and grows its on_complete
// chains; origin is the job's state inside a chain.
func (x *redirectGen) effects(path string, list []any, origin string) {
	for _, e := range list {
		em, ok := e.(m)
		if !ok {
			continue
		}
		if em["invoke"] == "host.bad" && (em["on_error"] != nil || x.chance(30)) && x.chance(70) {
			if t := x.aim(path, origin); t != "" {
				em["on_error"] = t
			}
		}
		if oc, ok := em["on_complete"]; ok {
			chain := asList(oc)
			x.effects(path, chain, path)
			if x.chance(60) {
				at := len(chain)
				if i := slices.IndexFunc(chain, func(c any) bool { cm, _ := c.(m); return cm != nil && cm["emit_intent"] != nil }); i >= 0 {
					at = i + 1
				} else if x.chance(50) {
					chain = append([]any{m{"emit_intent": "ping"}}, chain...)
					at = 1
				}
				chain = slices.Insert(chain, at, any(x.bad(path, path)))
			}
			em["on_complete"] = chain
		}
	}
}

// bad is a failing call redirected from path (origin: the job's state).
func (x *redirectGen) bad(path, origin string) m {
	e := m{"invoke": "host.bad", "with": m{"x": "1"}}
	if t := x.aim(path, origin); t != "" {
		e["on_error"] = t
	}
	return e
}

// origin is a job origin of the story, or "".
func (x *redirectGen) origin() string {
	if len(x.origins) == 0 || x.chance(30) {
		return ""
	}
	return x.origins[x.rnd.IntN(len(x.origins))]
}

// aim is an on_error target measured from path; "" when the one drawn
// names a state that submits a job.
func (x *redirectGen) aim(path, origin string) string {
	var t string
	switch r := x.rnd.IntN(10); {
	case origin != "" && r < 4:
		t = origin
	case r < 6:
		t = path
	case r == 6:
		if i := strings.LastIndexByte(path, '.'); i > 0 {
			t = path[:i]
		} else {
			t = "."
		}
	case r == 7:
		t = []string{".", "..", "p", "p.ra.a1", "c"}[x.rnd.IntN(5)]
	default:
		t = x.paths[x.rnd.IntN(len(x.paths))]
	}
	if x.submits[t] || t != "." && t != ".." && !slices.Contains(x.paths, t) {
		return ""
	}
	return t
}

// stateAt is the state at a dotted path, or nil.
func stateAt(states m, path string) m {
	var st m
	for _, k := range strings.Split(path, ".") {
		st, _ = states[k].(m)
		if st == nil {
			return nil
		}
		states, _ = st["states"].(m)
	}
	return st
}
