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
			c.rep.Errf(story.Pos{File: st.File, Line: 1, Col: 1}, story.RuleRoot, "root: unsupported value type <nil>; expected a state name string")
		}
		return
	}
	if st.Root == "" && yamlnode.IsNull(yamlnode.Deref(st.RootNode())) && !st.Imported() { // root: ~
		c.rep.Errf(st.RootPos, story.RuleRoot, "root: unsupported value type <nil>; expected a state name string")
		return
	}
	if st.Root == "" && !st.Imported() { // loads upstream
		c.rep.Warnf(st.RootPos, story.RuleRoot, `root: "" names no state: a session starts in the state "" and rejects every intent (a flow fixture runs only from its initial_state:); name the state the story starts in`)
		return
	}
	if st.Root == "" || story.TemplatedAt(story.FieldRoot, st.Root) {
		return
	}
	if st.StateAt(st.Root) == nil && !st.PhaseGenerated(st.Root) {
		var names []string
		for _, s := range st.States {
			names = append(names, s.Name)
		}
		c.rep.Errf(st.RootPos, story.RuleRoot, "root: state %q is not declared in states%s", st.Root, c.didYouMean(st.Root, names))
	}
}
