package flowtest

import "kitsoki/pkg/engine"

// turnObs is what one turn's expectations were checked against, kept
// for [Runner.Update] under [Options].Observe.
type turnObs struct {
	state   string
	world   map[string]any // nil on an expect_error turn (no other check runs)
	view    string
	evs     []event
	rej     *engine.Rejection
	legacy  bool
	checked bool // the turn's ordinary expectations ran (not expect_error)
}

func (fr *fixtureRun) observeTurn(t *Turn, state string, world map[string]any, view string, out outcome, checked bool) {
	if !fr.r.opts.Observe {
		return
	}
	for len(fr.res.obs) <= t.Index {
		fr.res.obs = append(fr.res.obs, nil)
	}
	fr.res.obs[t.Index] = &turnObs{state: state, world: world, view: view, evs: out.evs, rej: out.rej, legacy: fr.legacy, checked: checked}
}

// observeFinal keeps the world the session ended with.
func (fr *fixtureRun) observeFinal(world map[string]any) {
	if fr.r.opts.Observe {
		fr.res.finalWorld = world
	}
}
