package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleInitial = &Rule{ID: "initial", Severity: diag.Error, Summary: "a compound state's initial names a child; parallel states have 2+ regions and no initial; states: on a state not typed compound are never entered (warning)",
	Example: "flow: {type: compound, initial: missing, states: {a: {}}}"}

// checkInitial: a literal initial: names a child; parallel states need 2+
// regions and no initial (reference §4.5).
func checkInitial(c *checker) {
	for _, s := range c.states() {
		if s.Parallel {
			if len(s.Children) < 2 {
				fix := "add a second region under states:, or make it type: compound with an initial:"
				if len(s.Children) == 0 {
					fix = "declare its regions under states:, or drop type: parallel"
				}
				c.rep.ErrAt(s.Pos, diag.StatePlace(s.Path), ruleInitial, "state %q: parallel state must declare at least 2 child regions (got %d); %s", s.Path, len(s.Children), fix)
			}
			if s.Initial() != "" {
				c.rep.ErrAt(s.InitialPos(), diag.StatePlace(s.Path), ruleInitial, "state %q: parallel state must not declare initial: — each region picks its own initial", s.Path)
			}
			for _, ch := range s.Children {
				if ch.Parallel { // upstream fails only building a session
					c.rep.WarnAt(ch.Pos, diag.StatePlace(ch.Path), ruleInitial, "state %q: parallel state %q child %q is itself type: parallel — nested parallel regions are not supported (the engine refuses the story when a session starts)", ch.Path, s.Path, ch.Name)
				}
			}
			continue
		}
		if len(s.Children) > 0 && s.Type != "compound" {
			typ := "no type:"
			if s.Type != "" {
				typ = fmt.Sprintf("type: %s", s.Type)
			}
			c.rep.WarnAt(s.Pos, diag.StatePlace(s.Path), ruleInitial, "state %q has states: but %s, so the engine never descends into them: entering it rests on %q itself; add type: compound", s.Path, typ, s.Path)
		}
		if s.Initial() == "" {
			if len(s.Children) > 0 && s.Type == "compound" {
				c.rep.WarnAt(s.Pos, diag.StatePlace(s.Path), ruleInitial, "state %q has child states but no initial:; entering it will not descend into a child (set initial: to one of them)", s.Path)
			}
			continue
		}
		if story.IsTemplated(s.Initial()) {
			continue
		}
		var names []string
		for _, ch := range s.Children {
			names = append(names, ch.Name)
		}
		if !slices.Contains(names, s.Initial()) && c.st.StateAt(s.Path+"."+s.Initial()) == nil {
			if s.Type != "compound" { // upstream reads initial: only there
				c.rep.WarnAt(s.InitialPos(), diag.StatePlace(s.Path), ruleInitial, "state %q: initial child %q does not exist; upstream loads it since %q is not type: compound, where initial: is never read", s.Path, s.Initial(), s.Path)
				continue
			}
			fix := c.didYouMean(s.Initial(), names)
			if fix == "" && len(names) > 0 {
				fix = fmt.Sprintf("; name one of its states: %s", strings.Join(names, ", "))
			}
			c.rep.ErrAt(s.InitialPos(), diag.StatePlace(s.Path), ruleInitial, "state %q: initial child %q does not exist%s", s.Path, s.Initial(), fix)
		}
	}
}
