package lint

import (
	"fmt"
	"kitsoki/pkg/diag"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/duration"
	"kitsoki/pkg/story"
)

// checkStateValues: per-state enumerations and shape rules (reference §9.6).
func checkStateValues(c *checker) {
	for _, s := range c.states() {
		c.checkStateEnums(s)
		c.checkRoomOnly(s)
		c.checkStateTimeout(s)
		if o := s.AgentOffRamp(); o != nil && o.Enabled {
			if s.Terminal {
				c.rep.ErrAt(o.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q declares agent_off_ramp on a terminal: true state; a terminal state never routes free text", s.Path)
			}
			if s.Mode() == "conversational" {
				c.rep.ErrAt(o.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q declares agent_off_ramp on a mode: conversational state; that harness is already free-form, so the flag is meaningless there", s.Path)
			}
		}
		c.checkContextualRouting(s)
		for p := range (story.EffectWalk{}).States(s) {
			if p.Parent == nil && p.List != "on_exit" {
				c.checkReservedSet(s, p)
			}
		}
		if di := s.DefaultIntent(); di != "" {
			c.checkArcIntent(s, s.PosOf("default_intent"), story.RuleState, diag.StatePlace(s.Path), fmt.Sprintf("state %q: default_intent", s.Path), "in this state", di, true)
		}
	}
}

// checkStateEnums checks the state keys with a fixed set of values:
// decider, write_mode, intercept_drive.
func (c *checker) checkStateEnums(s *story.State) {
	switch s.Decider() {
	case "", "human", "llm":
	default:
		c.rep.ErrAt(s.PosOf("decider"), diag.StatePlace(s.Path), story.RuleState, `state %q: decider %q is invalid (want "", "human", or "llm")`, s.Path, s.Decider())
	}
	switch s.WriteMode() {
	case "", "open":
	case "read_only":
		if !dispatchesAgent(s) {
			c.rep.ErrAt(s.PosOf("write_mode"), diag.StatePlace(s.Path), story.RuleState, "state %q: write_mode: read_only is only meaningful on a room that dispatches an agent (mode: conversational, an agent_off_ramp, or a host.agent.task / host.agent.converse effect); it would silently do nothing here", s.Path)
		}
		c.checkReadOnlyAgents(s)
	default:
		c.rep.ErrAt(s.PosOf("write_mode"), diag.StatePlace(s.Path), story.RuleState, `state %q: write_mode %q is invalid (want "", "open", or "read_only")`, s.Path, s.WriteMode())
	}
	if s.InterceptDrive() != "" && s.InterceptDrive() != "rest" {
		c.rep.ErrAt(s.PosOf("intercept_drive"), diag.StatePlace(s.Path), story.RuleState, `state %q: intercept_drive %q is invalid (the only valid value is "rest")`, s.Path, s.InterceptDrive())
	}
}

// checkRoomOnly checks the keys only a top-level (room) state may have:
// transcript (with its values) and theme. Upstream checks the folded
// tree, where an imported story's top-level states sit under their
// wrapper: none of them is a room (conformance import-room-only).
func (c *checker) checkRoomOnly(s *story.State) {
	top := s.Parent == nil && !c.st.Imported()
	why := ""
	if s.Parent == nil && !top {
		why = " (this story is imported: once folded its top-level states sit under the import's wrapper state)"
	}
	if _, ok := s.Keys["transcript"]; ok {
		if !top {
			c.rep.ErrAt(s.PosOf("transcript"), diag.StatePlace(s.Path), story.RuleState, "state %q: transcript: only allowed on top-level (room) states%s", s.Path, why)
		} else if s.Transcript() != "" && s.Transcript() != "persistent" && s.Transcript() != "transient" {
			c.rep.ErrAt(s.PosOf("transcript"), diag.StatePlace(s.Path), story.RuleState, `state %q: transcript: %q is not one of "persistent", "transient"`, s.Path, s.Transcript())
		}
	}
	if _, ok := s.Keys["theme"]; ok && !top {
		c.rep.ErrAt(s.PosOf("theme"), diag.StatePlace(s.Path), story.RuleState, "state %q: theme: only allowed on top-level (room) states%s", s.Path, why)
	}
}

func (c *checker) checkStateTimeout(s *story.State) {
	t := s.Timeout()
	if t == nil {
		return
	}
	if t.After == "" {
		c.rep.ErrAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout: missing 'after' field", s.Path)
	} else if story.TemplatedAt(story.FieldTimeoutAfter, t.After) {
		c.rep.WarnAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout.after %q is a template, which neither engine renders (the existing engine parses it as written): the timeout never fires; write a literal duration such as 5m", s.Path, t.After)
	} else if duration.Never(t.After) {
		what := "is more days than a duration holds"
		switch a := strings.ToLower(strings.TrimSpace(t.After)); {
		case strings.HasPrefix(a, "-"):
			what = "is negative"
		case strings.Contains(a, "nan"):
			what = "is not a number of days"
		}
		c.rep.WarnAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout.after %q %s: the timeout never fires (upstream loads it too); write a positive duration", s.Path, t.After, what)
	} else if _, err := duration.Parse(t.After); err != nil {
		c.rep.ErrAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout.after %q: app.ParseDuration: %v", s.Path, t.After, err)
	}
	if t.Target == "" {
		c.rep.ErrAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout: missing 'target' field", s.Path)
	} else if strings.HasPrefix(t.Target, ".") || strings.Contains(t.Target, "/") || story.TemplatedAt(story.FieldTarget, t.Target) { // conformance clock/child, timeout-slash-target; a {% %} one alone is refused (rule target)
		fix := "write the absolute state path with dots"
		if to, within := story.ClimbPath(s.Path, t.Target); c.st.Imported() && !story.TemplatedAt(story.FieldTarget, t.Target) && within && c.st.State(to) != nil {
			fix = fmt.Sprintf("write the folded path `%s` (under this alias only)", spelled(c.st, s.Path, to, -1))
		}
		c.rep.WarnAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout.target %q is relative, templated or written with slashes, and a timeout target is looked up as written, so this timeout never fires; %s", s.Path, t.Target, fix)
	} else if tg := strings.TrimSpace(t.Target); c.st.Imported() && c.st.Importer() != nil && tg != "" && !strings.HasPrefix(tg, "@exit:") && !strings.Contains(tg, ".") && c.st.State(tg) != nil {
		// conformance-free, probed: the existing engine logs
		// `fireTimeout: target state "../../top" not found`
		c.rep.WarnAt(t.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: timeout.target %q: this story is imported, and the fold writes a bare target as %q, which a timeout looks up as written, so this timeout never fires; write the folded path `%s` (under this alias only)", s.Path, t.Target, strings.Repeat("../", depthOf(s)+1)+tg, foldedPrefix(c.st)+"."+tg)
	}
}

// checkContextualRouting checks an enabled contextual_routing: at least
// one lane, and plan intents with an arc here that are declared.
func (c *checker) checkContextualRouting(s *story.State) {
	cr := s.ContextualRouting()
	if cr == nil || !cr.Enabled {
		return
	}
	if cr.RoomChat == "" && cr.HelpChat == nil && cr.MetaChat == nil {
		c.rep.ErrAt(cr.Pos, diag.StatePlace(s.Path), story.RuleState, "state %q: contextual_routing.enabled requires at least one lane (room_chat, help_chat, or meta_chat)", s.Path)
	}
	for _, f := range []struct{ key, v string }{{"room_chat", cr.RoomChat}, {"plan_accept_intent", cr.PlanAcceptIntent}, {"plan_refine_intent", cr.PlanRefineIntent}} {
		if f.v != "" {
			c.checkArcIntent(s, cr.Pos, story.RuleState, diag.StatePlace(s.Path), fmt.Sprintf("state %q: contextual_routing.%s", s.Path, f.key), "in this state", f.v, false)
		}
	}
}

// checkReservedSet checks an effect at the top of the state's on_enter or
// of one of its transitions.
func (c *checker) checkReservedSet(s *story.State, p *story.EffectPlace) {
	for _, kv := range p.Effect.Set {
		if kv.Key == story.WorldWriteModeScope {
			name := "on_enter"
			if p.List == "effect" {
				name = "intent " + strconv.Quote(p.Intent)
			}
			c.rep.ErrAt(kv.Pos, diag.StatePlace(s.Path), story.RuleState, `state %q %s: set: "write_mode_scope" is engine-reserved — a story may not self-grant write mode`, s.Path, name)
		}
	}
}

// freeTextMiss says why in cannot take free text ("" when it can): the
// existing engine wants exactly one required slot, of type string or
// untyped, so a second required slot of any type refuses the story too.
func freeTextMiss(in *story.Intent) string {
	var req []string
	for _, name := range sortedMapKeys(in.Slots) {
		if sl := in.Slots[name]; sl != nil && sl.Required {
			req = append(req, name)
		}
	}
	switch {
	case len(req) == 0:
		return "it requires no slot: mark one string slot required: true"
	case len(req) > 1:
		return fmt.Sprintf("it requires slots %s: keep one string slot required, the others optional", strings.Join(req, ", "))
	}
	if t := in.Slots[req[0]].Type; t != "string" && t != "" {
		return fmt.Sprintf("its required slot %s is type: %s: make it type: string", req[0], t)
	}
	return ""
}

// checkReadOnlyAgents: a write_mode: read_only room hands no
// host.agent.task or host.agent.converse of its own to a write-capable
// agent (external_side_effect: true, declared or inferred from its
// network tools); each agent is named once (conformance
// persona-side-effect).
func (c *checker) checkReadOnlyAgents(s *story.State) {
	var named []string
	for p := range (story.EffectWalk{}).States(s) {
		e := p.Effect
		if p.Within("on_exit") || e.Invoke != "host.agent.task" && e.Invoke != "host.agent.converse" {
			continue
		}
		name, _ := e.With["agent"].(string)
		pe := c.st.Agents[name]
		if pe == nil || slices.Contains(named, name) || !writeCapable(pe) {
			continue
		}
		named = append(named, name)
		c.rep.ErrAt(e.WithPos("agent"), diag.StatePlace(s.Path), story.RuleState, "state %q: write_mode: read_only contradicts agent %q which declares external_side_effect: true (statically write-capable); the static and runtime postures must agree — drop write_mode: read_only or set the agent read-only", s.Path, name)
	}
}

// writeCapable is a persona's external_side_effect: as declared, else
// inferred from its tools.
func writeCapable(pe *story.Persona) bool {
	if pe.ExternalSideEffect != nil {
		return *pe.ExternalSideEffect
	}
	return hasTool(pe, networkTools...)
}

func dispatchesAgent(s *story.State) bool {
	if s.Mode() == "conversational" || (s.AgentOffRamp() != nil && s.AgentOffRamp().Enabled) {
		return true
	}
	for p := range (story.EffectWalk{}).States(s) {
		e := p.Effect
		if !p.Within("on_exit") && (e.Invoke == "host.agent.task" || e.Invoke == "host.agent.converse" || strings.HasPrefix(e.Invoke, "{{")) {
			return true
		}
	}
	return false
}
