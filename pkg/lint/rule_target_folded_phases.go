package lint

import "kitsoki/pkg/story"

// phasedView is st with its phases: expanded, nil when st has none or
// they do not expand (rule phases says why). An imported child's dotted
// target names the folded tree, where the states a phases: block
// generates (in the child or any story above it) are states like the
// hand-written ones (conformance import-phase-dotted-target); the import
// chain holds each story as loaded, unexpanded, so inFolded looks there
// too when the story as written has no such state.
// The copy is the load's one expansion of st (sources.expanded).
func (l *sources) phasedView(st *story.Story) *story.Story {
	if st == nil || st.Phases == nil {
		return nil
	}
	if x := l.expanded(st); x.err == nil {
		return x.st
	}
	return nil
}
