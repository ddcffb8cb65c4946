package lint

import (
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// checkRoot: root: names an existing top-level state (reference §4.4).
func checkRoot(c *checker) {
	st := c.st
	if st.RootNode() == nil {
		if !st.Imported() {
			c.rep.errf(story.Pos{File: st.File, Line: 1, Col: 1}, story.RuleRoot, "root: unsupported value type <nil>; expected a state name string")
		}
		return
	}
	if st.Root == "" || story.IsTemplated(st.Root) {
		return
	}
	if st.StateAt(st.Root) == nil && !st.PhaseGenerated(st.Root) {
		msg := "root: state %q is not declared in states"
		if s := yamlnode.Suggest(st.Root, topStateNames(st)); s != "" {
			c.rep.errf(st.RootPos, story.RuleRoot, msg+"; did you mean `%s`?", st.Root, s)
			return
		}
		c.rep.errf(st.RootPos, story.RuleRoot, msg, st.Root)
	}
}

func topStateNames(st *story.Story) []string {
	var out []string
	for _, s := range st.States {
		out = append(out, s.Name)
	}
	return out
}
