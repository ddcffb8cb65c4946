package story

import "strings"

// EachAgentEffect calls f for every host.agent.* effect of st with the path
// of its state: on_enter, on_exit, then each intent's transitions; inline
// effects before on_complete (the order the agent listings have always had).
func EachAgentEffect(st *Story, f func(state string, e *Effect)) {
	for p := range (EffectWalk{InlineFirst: true}).States(st.AllStates()...) {
		if strings.HasPrefix(p.Effect.Invoke, "host.agent.") {
			f(p.State.Path, p.Effect)
		}
	}
}
