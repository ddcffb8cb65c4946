package story

import (
	"kitsoki/internal/yamlnode"
)

// checkRoot: root: names an existing top-level state (reference §4.4).
func checkRoot(c *checker) {
	st := c.st
	if st.rootNode == nil {
		if !st.child {
			c.rep.errf(Pos{File: st.File, Line: 1, Col: 1}, ruleRoot, "root: unsupported value type <nil>; expected a state name string")
		}
		return
	}
	if st.Root == "" || isTemplated(st.Root) {
		return
	}
	if st.byPath[st.Root] == nil && !st.phaseGen[st.Root] {
		msg := "root: state %q is not declared in states"
		if s := yamlnode.Suggest(st.Root, topStateNames(st)); s != "" {
			c.rep.errf(st.RootPos, ruleRoot, msg+"; did you mean `%s`?", st.Root, s)
			return
		}
		c.rep.errf(st.RootPos, ruleRoot, msg, st.Root)
	}
}

func topStateNames(st *Story) []string {
	var out []string
	for _, s := range st.States {
		out = append(out, s.Name)
	}
	return out
}
