package eval

import (
	"fmt"
	"strings"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/diag"
)

// ForCassette makes v's findings true of a run answered by the cassette
// at path: a matrix profile that is no agent_plugins alias is reached as
// agent.<profile>, so its "cannot reach it" warning goes when an episode
// can answer that handler, and says the cassette misses it when none can.
// A cassette that does not load changes nothing and is returned, so eval
// run refuses it before printing findings true only of another run.
func (v *Validation) ForCassette(path string) error {
	c, err := agent.LoadCassette(path)
	if err != nil {
		return err
	}
	verb := ""
	if v.CallSite != nil {
		verb = v.CallSite.Handler
	}
	out := v.Findings[:0]
	for _, f := range v.Findings {
		if p := f.cassetteProfile; p != "" {
			alias := "agent." + strings.TrimPrefix(p, "agent.")
			if answersHandler(c, alias, verb) {
				continue
			}
			f.Message = diag.ClipMessage(fmt.Sprintf("matrix profile %q is no agent_plugins alias of the app and no episode of %s answers handler %s or %s: every call of it misses (add an episode with match: {handler: %s})",
				p, path, alias, verb, alias))
			f.blocksRun = false // the run goes on: every call of it fails
		}
		out = append(out, f)
	}
	v.Findings = out
	return nil
}

// answersHandler reports whether an agent episode of c can answer a call
// of alias at handler (host.agent.<verb>): its match: names either, or no
// handler at all.
func answersHandler(c *agent.Cassette, alias, handler string) bool {
	for _, ep := range c.Episodes {
		if ep.Agent == nil {
			continue
		}
		h, ok := ep.Match["handler"]
		if !ok || h == alias || (handler != "" && h == handler) {
			return true
		}
	}
	return false
}

// ForRun makes the warnings eval run cannot go past errors of this run:
// an empty matrix, a matrix profile nothing answers (after ForCassette,
// one the cassette answers is no longer found). eval run then stops
// before the matrix, each named at its place, as an invalid dataset.
func (v *Validation) ForRun() {
	for i := range v.Findings {
		if v.Findings[i].blocksRun {
			v.Findings[i].Severity = diag.Error
		}
	}
}
