package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleRelevantWorld = &Rule{ID: "relevant-world", Severity: diag.Error, Summary: "relevant_world keys are declared in world:",
	Example: "start: {relevant_world: [nope]}"}

// checkRelevantWorld: every relevant_world key is declared in world: (or reserved).
func checkRelevantWorld(c *checker) {
	var names []string
	for _, w := range c.st.World {
		names = append(names, w.Name)
	}
	for _, s := range c.states() {
		for _, rw := range s.RelevantWorld {
			if c.st.Var(rw.Name) != nil || story.IsReservedWorld(rw.Name) || lifted(c.st, "world", rw.Name) || importerHas(c.st, "world", rw.Name) {
				continue
			}
			c.rep.ErrAt(rw.Pos, diag.StatePlace(s.Path), ruleRelevantWorld, "state %q: relevant_world key %q is not declared in world schema%s", s.Path, rw.Name, c.didYouMean(rw.Name, names))
		}
	}
}
