package plugin

import (
	"strings"
	"time"

	"kitsoki/pkg/story"
)

// defaultCallTimeout is the hard timeout of an agent call when neither the
// invoke's timeout: nor --call-timeout sets one (agent.DefaultTimeout).
const defaultCallTimeout = 10 * time.Minute

// CallTimeout is one host.agent.* invoke that sets its own timeout:.
type CallTimeout struct {
	State   string `json:"state"`
	Verb    string `json:"verb"`
	Timeout string `json:"timeout"`
}

// AnnotateTimeouts fills each agent's effective timeout into r: def (the
// run's --call-timeout; 0 = defaultCallTimeout) and the invokes of st that
// set their own. The soft deadline a plugin is sent is the earlier of that
// timeout and the run's own end (--timeout).
func AnnotateTimeouts(r *Report, st *story.Story, def time.Duration) {
	label := def.String() + " (--call-timeout)"
	if def <= 0 {
		label = defaultCallTimeout.String() + " (default)"
	}
	per := map[string][]CallTimeout{}
	if st != nil {
		eachAgentEffect(st, func(state string, e *story.Effect) {
			if e.Timeout == "" {
				return
			}
			alias := e.Agent
			if alias == "" {
				alias = story.DefaultAgentAlias
			}
			per[alias] = append(per[alias], CallTimeout{State: state, Verb: strings.TrimPrefix(e.Invoke, "host.agent."), Timeout: e.Timeout})
		})
	}
	for i := range r.Agents {
		r.Agents[i].Timeout = label
		r.Agents[i].CallTimeouts = per[r.Agents[i].Alias]
	}
}

// eachAgentEffect calls f for every host.agent.* effect of st.
func eachAgentEffect(st *story.Story, f func(state string, e *story.Effect)) {
	var walk func(state string, es []*story.Effect)
	walk = func(state string, es []*story.Effect) {
		for _, e := range es {
			if e == nil {
				continue
			}
			if strings.HasPrefix(e.Invoke, "host.agent.") {
				f(state, e)
			}
			walk(state, e.Effects)
			walk(state, e.OnComplete)
		}
	}
	for _, s := range st.AllStates() {
		walk(s.Path, s.OnEnter)
		walk(s.Path, s.OnExit)
		for _, intent := range s.OnOrder {
			for _, tr := range s.On[intent] {
				walk(s.Path, tr.Effects)
			}
		}
	}
}
