package plugin

import "context"

// NewChain builds the hook chain of one run from the assembly: a fresh
// budget, the redact provider with its env values resolved now, and one
// lazily started process per enabled external plugin. Hook errors and
// reasons have the profile's redact env values and the run's secrets
// (Options.Redact) masked. Close the chain when the run ends: it stops
// those processes.
func (a *Assembly) NewChain() *Chain {
	red := newRedactHook(a.Profile.Redact, a.getenv)
	c := &Chain{mask: red.secretsOnly}
	if run := a.mask; run != nil {
		c.mask = func(s string) string { return run(red.secretsOnly(s)) }
	}
	bud := &budgetHook{cfg: a.Profile.Budget}
	procs := map[string]*procHandler{}
	for _, h := range a.Hooks {
		var hd Handler
		switch h.Plugin {
		case idBudget:
			hd = bud
		case idRedact:
			hd = red
		case idHostRun:
			hd = hostRunGate{reason: a.plugin(idHostRun).Reason}
		default:
			m := a.manifests[h.Plugin]
			if m == nil {
				continue
			}
			ph := procs[m.ID]
			if ph == nil {
				ph = newProcHandler(m, a.childEnv, a.childAfter, a.mask)
				procs[m.ID] = ph
				c.closers = append(c.closers, ph.Close)
			}
			hd = ph
		}
		c.regs = append(c.regs, Registration{Point: h.Point, PluginID: h.Plugin, OnError: h.OnError, Handler: hd})
	}
	return c
}

// hostRunGate refuses host.run when the host.run plugin is disabled.
type hostRunGate struct{ reason string }

func (g hostRunGate) Hook(_ context.Context, _ Point, p Payload) (Result, error) {
	if p["handler"] == "host.run" {
		return Result{Outcome: outcomeHalt, Reason: "host.run is disabled in the plugin assembly (" + g.reason + ")"}, nil
	}
	return Result{Outcome: outcomeContinue}, nil
}
