package lint

import (
	"strings"

	"kitsoki/pkg/diag"
)

var ruleStateName = &Rule{ID: "state-name", Severity: diag.Warning, LintOnly: true,
	Summary: "a state name holds \"#\" (or \"|\" inside a parallel state), which the active-state string \"root#leaf|leaf\" splits on: the state cannot be entered, or the existing engine refuses its intents",
	Example: "states:\n  \"review#2\": {}"}

// checkStateNames warns at a state whose name breaks the active-state
// string "root#leaf|leaf" of a parallel state. Outside a parallel state,
// both engines read a "#" in the path as that separator, so entering the
// state fails. Inside one, the existing engine splits the string at the
// name's "#" or "|" and then refuses the leaf's intents, while kitsoki
// keeps the leaf whole. The existing engine loads such a story, so it is a
// warning.
func checkStateNames(c *checker) {
	for _, s := range c.states() {
		hash, bar, par := strings.Contains(s.Name, "#"), strings.Contains(s.Name, "|"), inParallel(s)
		switch {
		case hash && !par:
			c.rep.WarnAt(s.Pos, diag.StatePlace(s.Path), ruleStateName, "state %q: the name holds \"#\", which both engines read as the separator of a parallel state's active leaves (\"root#leaf|leaf\"), so a turn that enters this state fails (the existing engine crashes); rename it without \"#\"", s.Path)
		case hash || (bar && par):
			sep := "#"
			if !hash {
				sep = "|"
			}
			c.rep.WarnAt(s.Pos, diag.StatePlace(s.Path), ruleStateName, "state %q: the name holds %q inside a parallel state, whose active leaves are written \"root#leaf|leaf\": the existing engine splits the name there and then refuses the state's intents (kitsoki keeps it whole); rename it without %q", s.Path, sep, sep)
		}
	}
}
