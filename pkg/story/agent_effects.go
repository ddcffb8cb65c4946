package story

import "strings"

// EachAgentEffect calls f for every host.agent.* effect of st, nested
// effects and on_complete included, with the path of the state that
// holds it: on_enter, on_exit, then each intent's transitions in order.
func EachAgentEffect(st *Story, f func(state string, e *Effect)) {
	var walk func(state string, es []*Effect)
	walk = func(state string, es []*Effect) {
		for _, e := range es {
			if e == nil {
				continue
			}
			if strings.HasPrefix(e.Invoke, "host.agent.") {
				f(state, e)
			}
			walk(state, e.Effects())
			walk(state, e.OnComplete())
		}
	}
	for _, s := range st.AllStates() {
		walk(s.Path, s.OnEnter)
		walk(s.Path, s.OnExit())
		for _, on := range s.On {
			for _, tr := range on.Arms {
				walk(s.Path, tr.Effects)
			}
		}
	}
}
