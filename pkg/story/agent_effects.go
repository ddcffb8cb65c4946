package story

import "strings"

// EachAgentEffect calls f for every host.agent.* effect of st, nested
// effects and on_complete included, with the path of the state that
// holds it: on_enter, on_exit, then each intent's transitions in order.
// An effect's inline effects come before its on_complete chain here, the
// order the agent listings (mcp tools, call timeouts) have always had.
func EachAgentEffect(st *Story, f func(state string, e *Effect)) {
	for p := range (EffectWalk{InlineFirst: true}).States(st.AllStates()...) {
		if strings.HasPrefix(p.Effect.Invoke, "host.agent.") {
			f(p.State.Path, p.Effect)
		}
	}
}
