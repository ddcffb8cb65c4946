package story

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

var (
	stateKeys = []string{
		"type", "mode", "description", "view", "terminal", "decider", "write_mode",
		"initial", "states", "on", "on_enter", "on_exit", "intents", "menu",
		"default_intent", "relevant_world", "relevant_slots", "footer", "timeout",
		"agent_off_ramp", "contextual_routing", "transcript", "theme", "intercept_drive",
	}
	transitionKeys = []string{"target", "when", "default", "effects", "guard_hint", "view", "emit", "push_history"}
	effectKeys     = []string{
		"when", "set", "increment", "say", "invoke", "id", "with", "bind", "on_error",
		"emit", "background", "once", "on_complete", "target", "emit_intent", "slots",
		"effects", "agent", "selection", "timeout",
	}
	selectionKeys = []string{"profile", "model", "effort", "evidence", "fallback_profile"}
	timeoutKeys   = []string{"after", "target"}
	offRampKeys   = []string{"agent", "persona", "banner"}
	// unkeyedStateKeys are the state keys State.Keys leaves out: their
	// values carry their own positions or are never reported at.
	unkeyedStateKeys = map[string]bool{
		"type": true, "mode": true, "description": true, "view": true, "terminal": true,
		"initial": true, "states": true, "on": true, "on_enter": true, "intents": true,
		"menu": true, "relevant_world": true, "relevant_slots": true,
	}
	ctxRouteKeys = []string{"enabled", "help_chat", "room_chat", "meta_chat", "pending_plan_path", "plan_accept_intent", "plan_refine_intent"}
)

// parseStates parses a states: mapping under parent (nil = top level).
func (p *fileParser) parseStates(n *yaml.Node, parent *State, where string) []*State {
	var out []*State
	if d := yamlnode.Deref(n); d != nil && d.Kind == yaml.MappingNode {
		out = make([]*State, 0, len(d.Content)/2)
	}
	// In a large story the node tree outweighs the model: once a top-level
	// state is parsed, its mapping lets go of its children (the subtrees
	// the model keeps, and the nodes aliases point at, stay alive). Only a
	// tree nobody else reads, and never an anchored node, is released.
	release := p.owned && parent == nil && where == "states"
	p.Mapping(n, where, nil, func(name string, k, v *yaml.Node) {
		out = append(out, p.parseState(name, k, v, parent, where+"."+name))
		if release && v != nil && v.Kind == yaml.MappingNode && v.Anchor == "" {
			v.Content = nil
		}
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

func (p *fileParser) parseState(name string, k, v *yaml.Node, parent *State, where string) *State {
	s := &State{Name: name, Parent: parent, Pos: p.Pos(k)}
	if parent != nil {
		s.Path = parent.Path + "." + name
	} else {
		s.Path = name
	}
	if strings.Contains(name, ".") || strings.Contains(name, "/") {
		p.warnf(p.Pos(k), RuleState, "state %q: a state name containing '.' or '/' cannot be targeted (targets split paths on them)", s.Path)
	}
	p.MappingIn(v, yamlnode.Place{Pre: "state ", Where: s.Path, Quote: true}, stateKeys, diag.Error, func(key string, kk, v *yaml.Node) {
		if !unkeyedStateKeys[key] {
			if s.Keys == nil {
				s.Keys = map[string]Pos{}
			}
			s.Keys[key] = p.Pos(v)
		}
		// w names the value in messages; the str and bool cases build it
		// only for one.
		w := ""
		switch key {
		case "view", "states", "on", "on_exit", "intents", "menu", "relevant_world", "relevant_slots", "timeout", "agent_off_ramp", "contextual_routing":
			w = where + "." + key
		}
		switch key {
		case "type":
			s.Type = p.StrIn(v, where, key)
			s.Parallel = s.Type == "parallel"
		case "mode":
			s.Extra().Mode = p.StrIn(v, where, key)
		case "description":
			s.Description = p.StrIn(v, where, key)
		case "view":
			s.View = p.parseView(v, w)
		case "terminal":
			s.Terminal = p.BoolIn(v, where, key)
		case "decider":
			s.Extra().Decider = p.StrIn(v, where, key)
		case "write_mode":
			s.Extra().WriteMode = p.StrIn(v, where, key)
		case "initial":
			s.Initial = p.StrIn(v, where, key)
			s.InitialPos = p.Pos(v)
		case "states":
			s.Children = p.parseStates(v, s, w)
		case "on":
			p.parseOn(s, v, w)
		case "on_enter":
			s.OnEnter = p.parseEffectsAt(v, yamlnode.Place{Where: where, Key: key, Keyed: true})
		case "on_exit":
			p.warnf(p.Pos(kk), RuleUnknownKey, "state %q: on_exit is not part of the upstream story format (the existing engine rejects it); use on_enter of the next state or transition effects", s.Path)
			s.Extra().OnExit = p.parseEffects(v, w)
		case "intents":
			s.Intents, s.IntentOrder = p.parseIntents(v, w)
		case "menu":
			s.Extra().Menu = p.StrList(v, w)
		case "default_intent":
			s.Extra().DefaultIntent = p.StrIn(v, where, key)
		case "relevant_world":
			s.RelevantWorld = p.parseRelevantWorld(v, w)
		case "relevant_slots":
			s.Extra().RelevantSlots = p.StrList(v, w)
		case "footer":
			s.Extra().Footer = p.StrIn(v, where, key)
		case "timeout":
			s.Extra().Timeout = p.parseTimeout(s, kk, v, w)
		case "agent_off_ramp":
			s.Extra().AgentOffRamp = p.parseOffRamp(v, w)
		case "contextual_routing":
			s.Extra().ContextualRouting = p.parseContextualRouting(kk, v, w)
		case "transcript":
			s.Extra().Transcript = p.StrIn(v, where, key)
		case "theme":
			s.Extra().Theme = p.StrIn(v, where, key)
		case "intercept_drive":
			s.Extra().InterceptDrive = p.StrIn(v, where, key)
		}
	})
	return s
}

// parseOn reads a state's on: block: per intent, one arm written as a
// mapping or a list of arms.
func (p *fileParser) parseOn(s *State, v *yaml.Node, w string) {
	if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.MappingNode && s.On == nil {
		s.On = make([]OnIntent, 0, len(d.Content)/2)
	}
	p.Mapping(v, w, nil, func(intent string, ik, iv *yaml.Node) {
		pos := p.Pos(ik)
		var arms []*Transition
		d := yamlnode.Deref(iv)
		wi := yamlnode.Place{Where: w, Key: intent, Keyed: true} // w.<intent>
		if d != nil && d.Kind == yaml.MappingNode {
			// A single arm written as a mapping.
			arms = newZeroed[Transition](1)
			p.parseTransitionInto(arms[0], iv, wi)
		} else if d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
			all := newZeroed[Transition](len(d.Content))
			n := 0 // the arms parsed (seqAt stops early when the budget runs out)
			p.SeqAt(iv, wi, func(i int, it *yaml.Node) {
				p.parseTransitionInto(all[i], it, wi.Item(i))
				n = i + 1
			})
			if n > 0 {
				arms = all[:n:n]
			}
		} else {
			// Not a list of arms (reported) or an empty one.
			p.SeqAt(iv, wi, func(int, *yaml.Node) {})
		}
		if o := s.OnAt(intent); o != nil {
			o.Pos, o.Arms = pos, arms // a repeated key: the last one wins
		} else {
			s.On = append(s.On, OnIntent{Intent: intent, Pos: pos, Arms: arms})
		}
	})
	if len(s.On) == 0 {
		s.On = nil
	}
}

// parseRelevantWorld reads relevant_world: one name or a list of names.
func (p *fileParser) parseRelevantWorld(v *yaml.Node, w string) []NamePos {
	if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.ScalarNode && !yamlnode.IsNull(d) {
		return []NamePos{{d.Value, p.Pos(d)}}
	}
	var out []NamePos
	if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
		out = make([]NamePos, 0, len(d.Content))
	}
	p.Seq(v, w, func(i int, it *yaml.Node) {
		out = append(out, NamePos{p.StrAt(it, w, i), p.Pos(it)})
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// parseTimeout reads a state's timeout: block.
func (p *fileParser) parseTimeout(s *State, kk, v *yaml.Node, w string) *Timeout {
	t := &Timeout{Pos: p.Pos(kk)}
	p.Mapping(v, "state "+quote(s.Path)+" timeout", timeoutKeys, func(tk string, _, tv *yaml.Node) {
		if tk == "after" {
			t.After = p.Str(tv, w+".after")
		} else {
			t.Target = p.Str(tv, w+".target")
			t.TargetPos = p.Pos(tv)
		}
	})
	return t
}

// parseContextualRouting reads a state's contextual_routing: block.
func (p *fileParser) parseContextualRouting(kk, v *yaml.Node, w string) *ContextualRouting {
	cr := &ContextualRouting{Pos: p.Pos(kk)}
	p.Mapping(v, w, ctxRouteKeys, func(ck string, _, cv *yaml.Node) {
		switch ck {
		case "enabled":
			cr.Enabled = p.Boolean(cv, w+".enabled")
		case "help_chat":
			cr.HelpChat = p.Raw(cv)
		case "room_chat":
			cr.RoomChat = p.Raw(cv)
		case "meta_chat":
			cr.MetaChat = p.Raw(cv)
		case "pending_plan_path":
			cr.PendingPlanPath = p.Str(cv, w+".pending_plan_path")
		case "plan_accept_intent":
			cr.PlanAcceptIntent = p.Str(cv, w+".plan_accept_intent")
		case "plan_refine_intent":
			cr.PlanRefineIntent = p.Str(cv, w+".plan_refine_intent")
		}
	})
	return cr
}

func (p *fileParser) parseOffRamp(v *yaml.Node, where string) *OffRamp {
	o := &OffRamp{Pos: p.Pos(v)}
	d := yamlnode.Deref(v)
	if yamlnode.IsNull(d) {
		return nil
	}
	if d.Kind == yaml.ScalarNode {
		if d.Tag == "!!bool" {
			o.Enabled = p.Boolean(d, where)
			return o
		}
		p.errf(p.Pos(v), RuleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", yamlnode.Describe(d))
		return o
	}
	if d.Kind != yaml.MappingNode {
		p.errf(p.Pos(v), RuleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", yamlnode.KindName(d))
		return o
	}
	o.Enabled = true
	p.Mapping(v, where, offRampKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "agent":
			o.Agent = p.Str(v, where+".agent")
		case "persona":
			o.Persona = p.Str(v, where+".persona")
		case "banner":
			o.Banner = p.Str(v, where+".banner")
		}
	})
	return o
}

// parseTransitionInto parses an arm into t (a zero Transition); at names
// it in messages.
func (p *fileParser) parseTransitionInto(t *Transition, n *yaml.Node, at yamlnode.Place) {
	t.Pos = p.Pos(n)
	d := yamlnode.Deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !yamlnode.IsNull(d) {
		// Shorthand: a bare target string.
		t.Target, t.TargetPos = p.Intern(d.Value), p.Pos(d)
		return
	}
	mp := at
	mp.Pre = "transition "
	p.MappingIn(n, mp, transitionKeys, diag.Error, func(key string, _, v *yaml.Node) {
		w := ""
		switch key {
		case "effects", "view", "emit", "push_history":
			w = at.String() + "." + key
		}
		switch key {
		case "target":
			t.Target = p.StrAtPl(v, at, key)
			t.TargetPos = p.Pos(v)
		case "when":
			t.When = p.StrAtPl(v, at, key)
			t.WhenPos = p.ValuePos(v)
		case "default":
			t.Extra().Default = p.BoolAtPl(v, at, key)
		case "effects":
			t.Effects = p.parseEffects(v, w)
		case "guard_hint":
			t.Extra().GuardHint = p.StrAtPl(v, at, key)
		case "view":
			t.Extra().View = p.parseView(v, w)
		case "emit":
			t.Extra().Emit = p.StrList(v, w)
		case "push_history":
			t.Extra().PushHistory = p.BoolPtr(v, w)
		}
	})
}

func (p *fileParser) parseEffects(n *yaml.Node, where string) []*Effect {
	return p.parseEffectsAt(n, yamlnode.Place{Where: where})
}

// parseEffectsAt is parseEffects for the list named at in messages.
func (p *fileParser) parseEffectsAt(n *yaml.Node, at yamlnode.Place) []*Effect {
	d := yamlnode.Deref(n)
	if d != nil && d.Kind == yaml.MappingNode {
		// A single effect written as a mapping.
		out := newZeroed[Effect](1)
		p.parseEffectInto(out[0], n, at)
		return out
	}
	if d == nil || d.Kind != yaml.SequenceNode || len(d.Content) == 0 {
		// Not a list of effects (reported) or an empty one.
		p.SeqAt(n, at, func(int, *yaml.Node) {})
		return nil
	}
	all := newZeroed[Effect](len(d.Content))
	k := 0 // the effects parsed (seqAt stops early when the budget runs out)
	p.SeqAt(n, at, func(i int, it *yaml.Node) {
		p.parseEffectInto(all[i], it, at.Item(i))
		k = i + 1
	})
	if k == 0 {
		return nil
	}
	return all[:k:k]
}

// parseEffectInto parses an effect into e (a zero Effect).
func (p *fileParser) parseEffectInto(e *Effect, n *yaml.Node, at yamlnode.Place) {
	e.Pos = p.Pos(n)
	if yamlnode.IsNull(n) {
		// Upstream decodes a null list item as a zero effect, a no-op.
		p.warnf(p.Pos(n), RuleEffect, "effect %s: empty effect (it does nothing; remove the bare list item)", at.String())
		return
	}
	if d := yamlnode.Deref(n); d != nil && d.Kind == yaml.MappingNode {
		e.keys = make([]keyAt, 0, len(d.Content)/2)
	}
	where := "" // at.String(), put together for the first key that needs it
	mp := at
	mp.Pre = "effect "
	p.MappingIn(n, mp, effectKeys, diag.Error, func(key string, _, v *yaml.Node) {
		e.Written = e.Written.With(key)
		vp := p.ValuePos(v)
		e.keys = append(e.keys, keyAt{key: key, line: int32(vp.Line), col: int32(vp.Col)})
		// w names the value in messages; the str and bool cases build it
		// only for one.
		w := ""
		switch key {
		case "set", "increment", "with", "bind", "slots", "on_complete", "effects", "selection":
			if where == "" {
				where = at.String()
			}
			w = where + "." + key
		}
		switch key {
		case "when":
			e.When = p.StrAtPl(v, at, key)
		case "set":
			e.Set = p.kvList(v, w)
		case "increment":
			e.Extra().Increment = p.kvList(v, w)
		case "say":
			e.Say = p.StrAtPl(v, at, key)
		case "invoke":
			e.Invoke = p.StrAtPl(v, at, key)
		case "id":
			e.Extra().ID = p.StrAtPl(v, at, key)
		case "with":
			p.recordWith(e, v)
			if !yamlnode.IsNull(v) {
				if m, ok := p.Raw(v).(map[string]any); ok {
					e.With = m
				} else {
					p.errf(p.Pos(v), RuleType, "%s: expected a mapping, got %s", w, yamlnode.KindName(v))
				}
			}
		case "bind":
			e.Extra().Bind = p.kvList(v, w)
		case "on_error":
			e.Extra().OnError = p.StrAtPl(v, at, key)
		case "emit":
			e.Extra().Emit = p.StrAtPl(v, at, key)
		case "background":
			e.Extra().Background = p.BoolAtPl(v, at, key)
		case "once":
			e.Extra().Once = p.BoolAtPl(v, at, key)
		case "on_complete":
			e.Extra().OnComplete = p.parseEffects(v, w)
		case "target":
			e.Extra().Target = p.StrAtPl(v, at, key)
		case "emit_intent":
			e.Extra().EmitIntent = p.StrAtPl(v, at, key)
		case "slots":
			e.Extra().Slots = p.kvList(v, w)
		case "effects":
			e.Extra().Effects = p.parseEffects(v, w)
		case "agent":
			e.Extra().Agent = p.StrAtPl(v, at, key)
		case "timeout":
			e.Extra().Timeout = p.StrAtPl(v, at, key)
		case "selection":
			e.Extra().Selection = p.parseSelection(v, w)
		}
	})
	if len(e.keys) == 0 {
		e.keys = nil
	}
}

func (p *fileParser) parseSelection(v *yaml.Node, where string) *Selection {
	s := &Selection{Pos: p.Pos(v), Keys: map[string]Pos{}}
	p.Mapping(v, "selection", selectionKeys, func(key string, _, v *yaml.Node) {
		s.Keys[key] = p.Pos(v)
		val := p.Str(v, where+"."+key)
		switch key {
		case "profile":
			s.Profile = val
		case "model":
			s.Model = val
		case "effort":
			s.Effort = val
		case "evidence":
			s.Evidence = val
		case "fallback_profile":
			s.FallbackProfile = val
		}
	})
	return s
}

func quote(s string) string { return strconv.Quote(s) }

// newZeroed returns a list of n pointers to new zero Ts (the arms or
// effects of one list, filled in place by the parse).
func newZeroed[T any](n int) []*T {
	list := make([]*T, n)
	for i := range list {
		list[i] = new(T)
	}
	return list
}
