package lint

import (
	"slices"

	"kitsoki/pkg/diag"
)

var ruleRelevantWorld = &Rule{ID: "relevant-world", Severity: diag.Error, Summary: "relevant_world keys are declared in world:",
	Example: "start: {relevant_world: [nope]}"}

// reservedWorld are world keys the engine owns; they never need declaring.
var reservedWorld = []string{"last_error", "host_error", "write_mode_scope", "session_id"}

// checkRelevantWorld: every relevant_world key is declared in world: (or reserved).
func checkRelevantWorld(c *checker) {
	var names []string
	for _, w := range c.st.World {
		names = append(names, w.Name)
	}
	for _, s := range c.states() {
		for _, rw := range s.RelevantWorld {
			if c.st.Var(rw.Name) != nil || slices.Contains(reservedWorld, rw.Name) || lifted(c.st, "world", rw.Name) || importerHas(c.st, "world", rw.Name) {
				continue
			}
			c.rep.Errf(rw.Pos, ruleRelevantWorld, "state %q: relevant_world key %q is not declared in world schema%s", s.Path, rw.Name, c.didYouMean(rw.Name, names))
		}
	}
}
