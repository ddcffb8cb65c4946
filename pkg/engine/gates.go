package engine

import (
	"strings"
)

// Execution modes (story-runtime §7).
const (
	ModeOneShot = "one-shot"
	ModeStaged  = "staged"
)

// gateStops decides whether a list of emit_intent hops may fire at the
// current state (story-runtime §1.9): at a decision gate it stops for
// decider: human, and in staged mode unless the state pins decider: llm;
// an all-hidden list at depth 0 is exempt (conformance gate-hidden-emit),
// each name read as the state resolves it (through an import's aliases).
func (r *runner) gateStops(emits []pendingEmit, depth int, postBind bool) (bool, error) {
	if r.par != nil || r.cur == nil {
		return false, nil
	}
	s := r.cur
	cands, gate := r.gateCandidates(s)
	if !gate {
		return false, nil
	}
	hidden := depth == 0
	for _, pe := range emits {
		// an imported child's emit names its own intent (unsure), hidden
		// under its folded name (kid__unsure) (conformance import-gate-hidden-emit)
		hidden = hidden && r.m.Hidden[aliasFrom(s, pe.name)]
	}
	stop := !hidden && (s.Decider == "human" || postBind && r.so.Mode == ModeStaged && s.Decider != "llm")
	if stop {
		if postBind {
			r.t.postGate, r.t.postGateAt = true, s.Path
		}
		return true, r.emit(KindGateDecided, map[string]any{"available_intents": gateNames(s, cands), "bailed_to_human": true,
			"chosen_intent": "", "decider": "human", "state": s.Path})
	}
	return false, r.emit(KindGateDecided, map[string]any{"available_intents": gateNames(s, cands), "bailed_to_human": false,
		"chosen_intent": emits[0].name, "decider": "default", "state": s.Path})
}

// gateCandidates are the intents s handles (on s or an ancestor, "*"
// aside, whatever their guards say), sorted: gate_decided's
// available_intents. s is a decision gate when a forward one (the arm
// that would win, the first whose guard holds among the handlers a turn
// would take, leaves s for another state, not an exit) is operator-only:
// not named by a literal emit_intent of s's own on_enter (the name
// resolved through the import aliases, as an emit hop resolves it).
func (r *runner) gateCandidates(s *State) ([]string, bool) {
	gate := false
	emitted := map[string]bool{}
	for _, e := range s.OnEnter {
		if e.Emit != nil && e.Emit.tmpl == nil { // through the import alias (conformance probe 04)
			emitted[aliasFrom(s, strings.TrimSpace(toString(e.Emit.lit)))] = true
		}
	}
	// listed whatever its guards say; only the gate test reads them
	// (conformance gate-lists-guarded)
	out := available(s)
	env := r.env(nil, nil)
	for _, name := range out {
		// the handlers a turn would take: a "*" below the level that
		// names the intent comes first (conformance gate-wildcard-first),
		// and the arm that would win decides (conformance
		// gate-winning-arm): a stay ahead of a forward arm is no gate,
		// and a guard that cannot be evaluated ends the look at that
		// intent with no forward move (conformance gate-guard-error)
		arms, x := lookupFrom(s, name)
		for _, a := range arms {
			held, err := guardHolds(a, env)
			if err != nil {
				break
			}
			if !held {
				continue
			}
			if r.movesOn(a, x, s) {
				gate = gate || !emitted[name]
			}
			break
		}
	}
	return out, gate
}

// guardHolds reports whether a's guard holds, and the error of one that
// cannot be evaluated.
func guardHolds(a *Transition, env map[string]any) (bool, error) {
	if a.When == nil || a.Default {
		return true, nil
	}
	ok, err := a.When.eval(env)
	return err == nil && ok, err
}

// movesOn reports whether arm a, declared on x, leaves s for another
// state: its target is neither a stay, an exit nor s itself. A templated
// one is rendered first, as the hop that would take it renders it
// (renderHop: `{{ state.path }}` fails there, conformance
// gate-target-hop-render): a render that fails or a path the story does
// not hold (an @exit: one too) moves, and
// a stay moves when the arm is an ancestor's (conformance
// gate-templated-target); so does a literal stay ("." or "", or no
// target at all) on an ancestor's arm (conformance gate-ancestor-stay).
func (r *runner) movesOn(a *Transition, x, s *State) bool {
	if a.Target == nil {
		return x != s
	}
	if a.Target.templated() {
		v, err := a.Target.renderHop(r.targetEnv())
		if err != nil {
			return true
		}
		if tg := strings.TrimSpace(v); tg != "" && tg != "." {
			p, err := resolvePath(x, tg)
			return err != nil || r.m.States[p] == nil || p != s.Path
		}
		return x != s
	}
	tg := strings.TrimSpace(a.Target.src)
	if tg == "" || tg == "." {
		return x != s
	}
	if strings.HasPrefix(tg, "@exit:") || strings.HasPrefix(tg, "__exit__") {
		return false
	}
	p, err := resolvePath(x, tg)
	return err == nil && p != s.Path
}
