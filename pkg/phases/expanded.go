package phases

import "kitsoki/pkg/story"

// Expanded returns a copy of st with its phases: expanded (st unchanged),
// for pkg/lint, and origin mapping each generated top-level state to its
// graph id. A story without phases: is returned as is.
func Expanded(st *story.Story) (exp *story.Story, origin map[string]string, err error) {
	if st == nil || st.Phases == nil {
		return st, nil, nil
	}
	// an empty binding substitutes nothing: a deep copy
	c := &copier{b: &binding{params: map[string]any{}, probs: &problems{}}}
	tmp := *st
	tmp.States = make([]*story.State, 0, len(st.States))
	for _, s := range st.States {
		if s != nil {
			tmp.States = append(tmp.States, c.state(s, nil))
		}
	}
	origin = map[string]string{}
	if err := (Options{}).expandInto(&tmp, origin); err != nil {
		return nil, nil, err
	}
	return st.WithStates(tmp.States), origin, nil
}
