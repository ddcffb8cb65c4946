package engine

import (
	"fmt"
	"strings"

	"kitsoki/internal/agentcall"
	"kitsoki/pkg/story"
)

// Agent calls: the alias a templated agent: renders to at dispatch, the
// invoke's own hard timeout, and the alias that really served each call
// (a pre-dispatch hook may reroute it) for the run summary and notes.

// agentAliasTemplate compiles a templated agent: ("{{ world.a }}"); nil
// for a literal alias.
func (c *compiler) agentAliasTemplate(e *story.Effect, where string) *valueTmpl {
	if !story.TemplatedAt(story.FieldAgentAlias, e.Agent()) {
		return nil
	}
	t, err := compileValue(e.Agent())
	if err != nil {
		c.refuse(e.Pos, "%s: agent: %q: %v", where, e.Agent(), err)
		return nil
	}
	return t
}

// agentAlias is the alias an agent effect dispatches to: its agent:
// rendered against the world now, "agent.claude" when it names none.
func (r *runner) agentAlias(e *Effect) (string, error) {
	if e.agentTmpl == nil {
		if e.Agent == "" {
			return story.DefaultAgentAlias, nil
		}
		return e.Agent, nil
	}
	v, err := e.agentTmpl.render(r.env(r.slots, nil))
	if err != nil {
		return "", fmt.Errorf("agent: %q could not be rendered: %v", e.Agent, err)
	}
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("agent: %q rendered to %v, which is not an agent alias; it must render to a declared agent_plugins alias like agent.claude", e.Agent, describeValue(v))
	}
	return s, nil
}

// aliasError names the template when a rendered alias is unknown.
func aliasError(e *Effect, alias string, err error) error {
	if e.agentTmpl == nil {
		return err
	}
	if _, _, ok := agentcall.FailedCall(err); ok {
		return err
	}
	return fmt.Errorf("agent: %q rendered to %q: %w", e.Agent, alias, err)
}

// usedAgent is the alias that served the call callID (after hooks, a
// rendered template) when it is not what the effect says, else the
// effect's agent: as written ("" for the default agent.claude, as before).
func (r *runner) usedAgent(e *Effect, callID string) string {
	a, ok := r.agentUsed[callID]
	if !ok || callID == "" || a == e.Agent || (e.Agent == "" && a == story.DefaultAgentAlias) {
		return e.Agent
	}
	return a
}

// noteAgent records the alias that served callID.
func (r *runner) noteAgent(callID, alias string) {
	if callID != "" && alias != "" {
		r.agentUsed[callID] = alias
	}
}

func describeValue(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%#v", v)
}
