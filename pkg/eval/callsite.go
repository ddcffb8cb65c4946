package eval

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// CallSite is the host.agent.* effect a dataset evaluates (reference C.4).
type CallSite struct {
	Call         string `json:"call"`
	Handler      string `json:"handler"`
	Agent        string `json:"agent,omitempty"`         // with.agent (persona)
	Plugin       string `json:"plugin,omitempty"`        // the effect's agent_plugins alias ("" = agent.claude)
	PromptPath   string `json:"prompt_path,omitempty"`   // with.prompt_path, else with.prompt
	SchemaPath   string `json:"schema_path,omitempty"`   // with.schema
	SchemaName   string `json:"schema_name,omitempty"`   // base name of SchemaPath
	EffectIndex  int    `json:"effect_index"`            // index in its effect list
	StatePath    string `json:"state_path"`              // dotted
	SelectionRef string `json:"selection_ref,omitempty"` // selection.evidence

	Effect *story.Effect `json:"-"`
	State  *story.State  `json:"-"`
}

// findCallSite returns the first host.agent.* effect whose id: is call,
// walking states and their effects in sorted order.
func findCallSite(st *story.Story, call string) *CallSite {
	for _, ae := range agentEffects(st) {
		if strings.TrimSpace(ae.Effect.ID()) == call {
			return newCallSite(ae.State, ae.Index, ae.Effect)
		}
	}
	return nil
}

// callIDs lists the id: of every host.agent.* effect of the story.
func callIDs(st *story.Story) []string {
	var ids []string
	for _, ae := range agentEffects(st) {
		if id := strings.TrimSpace(ae.Effect.ID()); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// AgentEffect is one host.agent.* effect with where it sits.
type AgentEffect struct {
	State  *story.State
	Index  int
	Effect *story.Effect
}

// agentEffects lists every host.agent.* effect of the story in walk order.
func agentEffects(st *story.Story) []AgentEffect {
	if st == nil {
		return nil
	}
	var out []AgentEffect
	var visitList func(s *story.State, list []*story.Effect)
	visitList = func(s *story.State, list []*story.Effect) {
		for i, e := range list {
			if e == nil {
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(e.Invoke), "host.agent.") {
				out = append(out, AgentEffect{State: s, Index: i, Effect: e})
			}
			visitList(s, e.OnComplete())
			visitList(s, e.Effects())
		}
	}
	var visitState func(s *story.State)
	visitState = func(s *story.State) {
		visitList(s, s.OnEnter)
		for _, in := range s.OnNames() {
			for _, t := range s.Arms(in) {
				visitList(s, t.Effects)
			}
		}
		for _, c := range sortedStates(s.Children) {
			visitState(c)
		}
	}
	for _, s := range sortedStates(st.States) {
		visitState(s)
	}
	return out
}

func sortedStates(l []*story.State) []*story.State {
	return slices.SortedStableFunc(slices.Values(l), func(a, b *story.State) int { return strings.Compare(a.Name, b.Name) })
}

func newCallSite(s *story.State, idx int, e *story.Effect) *CallSite {
	str := func(k string) string {
		v, ok := e.With[k]
		if !ok || v == nil {
			return ""
		}
		return strings.TrimSpace(fmt.Sprint(v))
	}
	cs := &CallSite{
		Call:        strings.TrimSpace(e.ID()),
		Handler:     strings.TrimSpace(e.Invoke),
		Agent:       str("agent"),
		Plugin:      e.Agent(),
		PromptPath:  cmp.Or(str("prompt_path"), str("prompt")),
		SchemaPath:  str("schema"),
		EffectIndex: idx,
		StatePath:   s.Path,
		Effect:      e,
		State:       s,
	}
	if cs.SchemaPath != "" {
		cs.SchemaName = path.Base(strings.ReplaceAll(cs.SchemaPath, "\\", "/"))
	}
	if e.Selection() != nil {
		cs.SelectionRef = strings.TrimSpace(e.Selection().Evidence)
	}
	return cs
}

// Verb is the host.agent.<verb> of the call site.
func (c *CallSite) Verb() string { return strings.TrimPrefix(c.Handler, "host.agent.") }
