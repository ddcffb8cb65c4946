package story

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

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
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode {
		out = make([]*State, 0, len(d.Content)/2)
	}
	// In a large story the node tree outweighs the model: once a top-level
	// state is parsed, its mapping lets go of its children (the subtrees
	// the model keeps, and the nodes aliases point at, stay alive). Only a
	// tree nobody else reads, and never an anchored node, is released.
	release := p.owned && parent == nil && where == "states"
	p.mapping(n, where, nil, func(name string, k, v *yaml.Node) {
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
	s := &State{Name: name, Parent: parent, Pos: p.pos(k)}
	if parent != nil {
		s.Path = parent.Path + "." + name
	} else {
		s.Path = name
	}
	if strings.Contains(name, ".") || strings.Contains(name, "/") {
		p.warnf(p.pos(k), ruleState, "state %q: a state name containing '.' or '/' cannot be targeted (targets split paths on them)", s.Path)
	}
	p.mappingIn(v, place{pre: "state ", where: s.Path, quote: true}, stateKeys, diag.Error, func(key string, kk, v *yaml.Node) {
		if !unkeyedStateKeys[key] {
			if s.Keys == nil {
				s.Keys = map[string]Pos{}
			}
			s.Keys[key] = p.pos(v)
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
			s.Type = p.strIn(v, where, key)
			s.Parallel = s.Type == "parallel"
		case "mode":
			s.Extra().Mode = p.strIn(v, where, key)
		case "description":
			s.Description = p.strIn(v, where, key)
		case "view":
			s.View = p.parseView(v, w)
		case "terminal":
			s.Terminal = p.boolIn(v, where, key)
		case "decider":
			s.Extra().Decider = p.strIn(v, where, key)
		case "write_mode":
			s.Extra().WriteMode = p.strIn(v, where, key)
		case "initial":
			s.Initial = p.strIn(v, where, key)
			s.InitialPos = p.pos(v)
		case "states":
			s.Children = p.parseStates(v, s, w)
		case "on":
			p.parseOn(s, v, w)
		case "on_enter":
			s.OnEnter = p.parseEffectsAt(v, place{where: where, key: key, keyed: true})
		case "on_exit":
			p.warnf(p.pos(kk), ruleUnknownKey, "state %q: on_exit is not part of the upstream story format (the existing engine rejects it); use on_enter of the next state or transition effects", s.Path)
			s.Extra().OnExit = p.parseEffects(v, w)
		case "intents":
			s.Intents, s.IntentOrder = p.parseIntents(v, w)
		case "menu":
			s.Extra().Menu = p.strList(v, w)
		case "default_intent":
			s.Extra().DefaultIntent = p.strIn(v, where, key)
		case "relevant_world":
			s.RelevantWorld = p.parseRelevantWorld(v, w)
		case "relevant_slots":
			s.Extra().RelevantSlots = p.strList(v, w)
		case "footer":
			s.Extra().Footer = p.strIn(v, where, key)
		case "timeout":
			s.Extra().Timeout = p.parseTimeout(s, kk, v, w)
		case "agent_off_ramp":
			s.Extra().AgentOffRamp = p.parseOffRamp(v, w)
		case "contextual_routing":
			s.Extra().ContextualRouting = p.parseContextualRouting(kk, v, w)
		case "transcript":
			s.Extra().Transcript = p.strIn(v, where, key)
		case "theme":
			s.Extra().Theme = p.strIn(v, where, key)
		case "intercept_drive":
			s.Extra().InterceptDrive = p.strIn(v, where, key)
		}
	})
	return s
}

// parseOn reads a state's on: block: per intent, one arm written as a
// mapping or a list of arms.
func (p *fileParser) parseOn(s *State, v *yaml.Node, w string) {
	if d := deref(v); d != nil && d.Kind == yaml.MappingNode && s.On == nil {
		s.On = make([]OnIntent, 0, len(d.Content)/2)
	}
	p.mapping(v, w, nil, func(intent string, ik, iv *yaml.Node) {
		pos := p.pos(ik)
		var arms []*Transition
		d := deref(iv)
		wi := place{where: w, key: intent, keyed: true} // w.<intent>
		if d != nil && d.Kind == yaml.MappingNode {
			// A single arm written as a mapping.
			arms = newZeroed[Transition](1)
			p.parseTransitionInto(arms[0], iv, wi)
		} else if d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
			all := newZeroed[Transition](len(d.Content))
			n := 0 // the arms parsed (seqAt stops early when the budget runs out)
			p.seqAt(iv, wi, func(i int, it *yaml.Node) {
				p.parseTransitionInto(all[i], it, wi.item(i))
				n = i + 1
			})
			if n > 0 {
				arms = all[:n:n]
			}
		} else {
			// Not a list of arms (reported) or an empty one.
			p.seqAt(iv, wi, func(int, *yaml.Node) {})
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
	if d := deref(v); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		return []NamePos{{d.Value, p.pos(d)}}
	}
	var out []NamePos
	if d := deref(v); d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
		out = make([]NamePos, 0, len(d.Content))
	}
	p.seq(v, w, func(i int, it *yaml.Node) {
		out = append(out, NamePos{p.strAt(it, w, i), p.pos(it)})
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// parseTimeout reads a state's timeout: block.
func (p *fileParser) parseTimeout(s *State, kk, v *yaml.Node, w string) *Timeout {
	t := &Timeout{Pos: p.pos(kk)}
	p.mapping(v, "state "+quote(s.Path)+" timeout", timeoutKeys, func(tk string, _, tv *yaml.Node) {
		if tk == "after" {
			t.After = p.str(tv, w+".after")
		} else {
			t.Target = p.str(tv, w+".target")
			t.TargetPos = p.pos(tv)
		}
	})
	return t
}

// parseContextualRouting reads a state's contextual_routing: block.
func (p *fileParser) parseContextualRouting(kk, v *yaml.Node, w string) *ContextualRouting {
	cr := &ContextualRouting{Pos: p.pos(kk)}
	p.mapping(v, w, ctxRouteKeys, func(ck string, _, cv *yaml.Node) {
		switch ck {
		case "enabled":
			cr.Enabled = p.boolean(cv, w+".enabled")
		case "help_chat":
			cr.HelpChat = p.raw(cv)
		case "room_chat":
			cr.RoomChat = p.raw(cv)
		case "meta_chat":
			cr.MetaChat = p.raw(cv)
		case "pending_plan_path":
			cr.PendingPlanPath = p.str(cv, w+".pending_plan_path")
		case "plan_accept_intent":
			cr.PlanAcceptIntent = p.str(cv, w+".plan_accept_intent")
		case "plan_refine_intent":
			cr.PlanRefineIntent = p.str(cv, w+".plan_refine_intent")
		}
	})
	return cr
}

func (p *fileParser) parseOffRamp(v *yaml.Node, where string) *OffRamp {
	o := &OffRamp{Pos: p.pos(v)}
	d := deref(v)
	if isNull(d) {
		return nil
	}
	if d.Kind == yaml.ScalarNode {
		if d.Tag == "!!bool" {
			o.Enabled = p.boolean(d, where)
			return o
		}
		p.errf(p.pos(v), ruleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", describe(d))
		return o
	}
	if d.Kind != yaml.MappingNode {
		p.errf(p.pos(v), ruleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", kindName(d))
		return o
	}
	o.Enabled = true
	p.mapping(v, where, offRampKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "agent":
			o.Agent = p.str(v, where+".agent")
		case "persona":
			o.Persona = p.str(v, where+".persona")
		case "banner":
			o.Banner = p.str(v, where+".banner")
		}
	})
	return o
}

// parseTransitionInto parses an arm into t (a zero Transition); at names
// it in messages.
func (p *fileParser) parseTransitionInto(t *Transition, n *yaml.Node, at place) {
	t.Pos = p.pos(n)
	d := deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		// Shorthand: a bare target string.
		t.Target, t.TargetPos = p.intern(d.Value), p.pos(d)
		return
	}
	mp := at
	mp.pre = "transition "
	p.mappingIn(n, mp, transitionKeys, diag.Error, func(key string, _, v *yaml.Node) {
		w := ""
		switch key {
		case "effects", "view", "emit", "push_history":
			w = at.String() + "." + key
		}
		switch key {
		case "target":
			t.Target = p.strAtPl(v, at, key)
			t.TargetPos = p.pos(v)
		case "when":
			t.When = p.strAtPl(v, at, key)
			t.WhenPos = p.valuePos(v)
		case "default":
			t.Extra().Default = p.boolAtPl(v, at, key)
		case "effects":
			t.Effects = p.parseEffects(v, w)
		case "guard_hint":
			t.Extra().GuardHint = p.strAtPl(v, at, key)
		case "view":
			t.Extra().View = p.parseView(v, w)
		case "emit":
			t.Extra().Emit = p.strList(v, w)
		case "push_history":
			t.Extra().PushHistory = p.boolPtr(v, w)
		}
	})
}

func (p *fileParser) parseEffects(n *yaml.Node, where string) []*Effect {
	return p.parseEffectsAt(n, place{where: where})
}

// parseEffectsAt is parseEffects for the list named at in messages.
func (p *fileParser) parseEffectsAt(n *yaml.Node, at place) []*Effect {
	d := deref(n)
	if d != nil && d.Kind == yaml.MappingNode {
		// A single effect written as a mapping.
		out := newZeroed[Effect](1)
		p.parseEffectInto(out[0], n, at)
		return out
	}
	if d == nil || d.Kind != yaml.SequenceNode || len(d.Content) == 0 {
		// Not a list of effects (reported) or an empty one.
		p.seqAt(n, at, func(int, *yaml.Node) {})
		return nil
	}
	all := newZeroed[Effect](len(d.Content))
	k := 0 // the effects parsed (seqAt stops early when the budget runs out)
	p.seqAt(n, at, func(i int, it *yaml.Node) {
		p.parseEffectInto(all[i], it, at.item(i))
		k = i + 1
	})
	if k == 0 {
		return nil
	}
	return all[:k:k]
}

// parseEffectInto parses an effect into e (a zero Effect).
func (p *fileParser) parseEffectInto(e *Effect, n *yaml.Node, at place) {
	e.Pos = p.pos(n)
	if isNull(n) {
		// Upstream decodes a null list item as a zero effect, a no-op.
		p.warnf(p.pos(n), ruleEffect, "effect %s: empty effect (it does nothing; remove the bare list item)", at.String())
		return
	}
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode {
		e.keys = make([]keyAt, 0, len(d.Content)/2)
	}
	where := "" // at.String(), put together for the first key that needs it
	mp := at
	mp.pre = "effect "
	p.mappingIn(n, mp, effectKeys, diag.Error, func(key string, _, v *yaml.Node) {
		e.Written = e.Written.With(key)
		vp := p.valuePos(v)
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
			e.When = p.strAtPl(v, at, key)
		case "set":
			e.Set = p.kvList(v, w)
		case "increment":
			e.Extra().Increment = p.kvList(v, w)
		case "say":
			e.Say = p.strAtPl(v, at, key)
		case "invoke":
			e.Invoke = p.strAtPl(v, at, key)
		case "id":
			e.Extra().ID = p.strAtPl(v, at, key)
		case "with":
			p.recordWith(e, v)
			if !isNull(v) {
				if m, ok := p.raw(v).(map[string]any); ok {
					e.With = m
				} else {
					p.errf(p.pos(v), ruleType, "%s: expected a mapping, got %s", w, kindName(v))
				}
			}
		case "bind":
			e.Extra().Bind = p.kvList(v, w)
		case "on_error":
			e.Extra().OnError = p.strAtPl(v, at, key)
		case "emit":
			e.Extra().Emit = p.strAtPl(v, at, key)
		case "background":
			e.Extra().Background = p.boolAtPl(v, at, key)
		case "once":
			e.Extra().Once = p.boolAtPl(v, at, key)
		case "on_complete":
			e.Extra().OnComplete = p.parseEffects(v, w)
		case "target":
			e.Extra().Target = p.strAtPl(v, at, key)
		case "emit_intent":
			e.Extra().EmitIntent = p.strAtPl(v, at, key)
		case "slots":
			e.Extra().Slots = p.kvList(v, w)
		case "effects":
			e.Extra().Effects = p.parseEffects(v, w)
		case "agent":
			e.Extra().Agent = p.strAtPl(v, at, key)
		case "timeout":
			e.Extra().Timeout = p.strAtPl(v, at, key)
		case "selection":
			e.Extra().Selection = p.parseSelection(v, w)
		}
	})
	if len(e.keys) == 0 {
		e.keys = nil
	}
}

func (p *fileParser) parseSelection(v *yaml.Node, where string) *Selection {
	s := &Selection{Pos: p.pos(v), Keys: map[string]Pos{}}
	p.mapping(v, "selection", selectionKeys, func(key string, _, v *yaml.Node) {
		s.Keys[key] = p.pos(v)
		val := p.str(v, where+"."+key)
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
