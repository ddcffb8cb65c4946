package plugin

import (
	"cmp"
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
		story.EachAgentEffect(st, func(state string, e *story.Effect) {
			if e.Timeout() == "" {
				return
			}
			alias := cmp.Or(e.Agent(), story.DefaultAgentAlias)
			per[alias] = append(per[alias], CallTimeout{State: state, Verb: strings.TrimPrefix(e.Invoke, "host.agent."), Timeout: e.Timeout()})
		})
	}
	for i := range r.Agents {
		r.Agents[i].Timeout = label
		r.Agents[i].CallTimeouts = per[r.Agents[i].Alias]
	}
}
