package story

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// The state, transition and effect vocabularies of the format schema (see
// topKeys); effectKeys' order also numbers EffectKeys.
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
	// unkeyedStateKeys are the state keys State.Keys leaves out.
	unkeyedStateKeys = map[string]bool{
		"type": true, "mode": true, "description": true, "view": true, "terminal": true,
		"initial": true, "states": true, "on": true, "on_enter": true, "intents": true,
		"relevant_world": true, "relevant_slots": true,
	}
)

// parseStates parses a states: mapping under parent (nil = top level).
func (p *fileParser) parseStates(n *yaml.Node, parent *State, where string) []*State {
	// Once a top-level state is parsed, release its mapping's children (only
	// a tree nobody else reads, never an anchored node): the model is lighter.
	release := p.owned && parent == nil && where == "states"
	return yamlnode.MappingList(p.Walker, n, where, func(name string, k, v *yaml.Node) *State {
		s := p.parseState(name, k, v, parent, where+"."+yamlnode.KeyText(name))
		if release && v != nil && v.Kind == yaml.MappingNode && v.Anchor == "" {
			v.Content = nil
		}
		return s
	})
}

func (p *fileParser) parseState(name string, k, v *yaml.Node, parent *State, where string) *State {
	s := &State{Name: name, Parent: parent, Pos: p.Pos(k)}
	if parent != nil {
		s.Path = parent.Path + "." + name
	} else {
		s.Path = name
	}
	if strings.Contains(name, ".") || strings.Contains(name, "/") {
		p.Warnf(p.Pos(k), RuleState, "state %q: a state name containing '.' or '/' cannot be targeted (targets split paths on them)", s.Path)
	}
	var more StateMore // kept when a key sets it
	vals := yamlnode.Place{Where: where}
	p.FieldsAt(v, yamlnode.Place{Pre: "state ", Where: s.Path, Quote: true}, vals, diag.Error, yamlnode.Fields{
		{Key: "type", Str: &s.Type, Read: func(_, _ *yaml.Node) { s.Parallel = s.Type == "parallel" }},
		{Key: "mode", Str: &more.Mode},
		{Key: "description", Str: &s.Description},
		{Key: "view", Read: func(_, v *yaml.Node) {
			s.View = p.parseView(v, where+".view", "state "+strconv.Quote(s.Path)+": view", diag.StatePlace(s.Path))
		}},
		{Key: "terminal", Bool: &s.Terminal},
		{Key: "decider", Str: &more.Decider},
		{Key: "write_mode", Str: &more.WriteMode},
		{Key: "initial", Str: &more.Initial, Pos: &more.InitialPos},
		{Key: "states", Read: func(_, v *yaml.Node) { s.Children = p.parseStates(v, s, where+".states") }},
		{Key: "on", Read: func(_, v *yaml.Node) { p.parseOn(s, v, where+".on") }},
		{Key: "on_enter", Read: func(_, v *yaml.Node) {
			s.OnEnter = p.parseEffectsAt(v, yamlnode.Place{Where: where, Key: "on_enter", Keyed: true})
		}},
		{Key: "on_exit", Read: func(kk, v *yaml.Node) {
			p.ErrAt(p.Pos(kk), diag.StatePlace(s.Path), RuleOnExit, "state %q: unknown field \"on_exit\": the story format has no on_exit (the existing engine refuses the story); move these effects to the effects: of the transitions that leave the state, or to the on_enter of the next state", s.Path)
			more.OnExit = p.parseEffects(v, where+".on_exit")
		}, Refused: true},
		{Key: "intents", Read: func(_, v *yaml.Node) {
			s.Intents, s.IntentOrder = p.parseIntents(v, where+".intents", s, false)
		}},
		{Key: "menu", List: &more.Menu},
		{Key: "default_intent", Str: &more.DefaultIntent},
		{Key: "relevant_world", Read: func(_, v *yaml.Node) { s.RelevantWorld = p.parseRelevantWorld(v, where+".relevant_world") }},
		{Key: "relevant_slots", List: &more.RelevantSlots},
		{Key: "footer", Str: &more.Footer},
		{Key: "timeout", Read: func(kk, v *yaml.Node) { more.Timeout = p.parseTimeout(s, kk, v, where+".timeout") }},
		{Key: "agent_off_ramp", Read: func(_, v *yaml.Node) { more.AgentOffRamp = p.parseOffRamp(v, where+".agent_off_ramp") }},
		{Key: "contextual_routing", Read: func(kk, v *yaml.Node) {
			more.ContextualRouting = p.parseContextualRouting(kk, v, where+".contextual_routing")
		}},
		{Key: "transcript", Str: &more.Transcript},
		{Key: "theme", Str: &more.Theme},
		{Key: "intercept_drive", Str: &more.InterceptDrive},
	}, func(key string, _, v *yaml.Node) {
		if !unkeyedStateKeys[key] {
			if s.Keys == nil {
				s.Keys = map[string]Pos{}
			}
			s.Keys[key] = p.Pos(v)
		}
	})
	s.More = kept(more)
	return s
}

// parseOn reads a state's on: block: per intent, one arm or a list of arms.
func (p *fileParser) parseOn(s *State, v *yaml.Node, w string) {
	if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.MappingNode && s.On == nil {
		s.On = make([]OnIntent, 0, len(d.Content)/2)
	}
	p.Mapping(v, w, nil, func(intent string, ik, iv *yaml.Node) {
		pos := p.Pos(ik)
		vp := "state " + strconv.Quote(s.Path) + " intent " + strconv.Quote(intent) + ": transition view: view"
		arms := oneOrList(p, iv, yamlnode.Place{Where: w, Key: intent, Keyed: true}, func(p *fileParser, t *Transition, n *yaml.Node, at yamlnode.Place) {
			p.parseTransitionInto(t, n, at, vp, diag.ArcPlace(s.Path, intent))
		})
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
		p.StrList(v, w) // one name is no list upstream (reported when Typed)
		return []NamePos{{d.Value, p.Pos(d)}}
	}
	return yamlnode.SeqList(p.Walker, v, w, func(i int, it *yaml.Node) NamePos { return NamePos{p.StrAt(it, w, i), p.Pos(it)} })
}

// parseTimeout reads a state's timeout: block.
func (p *fileParser) parseTimeout(s *State, kk, v *yaml.Node, w string) *Timeout {
	if yamlnode.IsNull(yamlnode.Deref(v)) {
		return nil // timeout: ~ arms nothing, as upstream reads it
	}
	t := &Timeout{Pos: p.Pos(kk)}
	p.FieldsAt(v, yamlnode.Place{Where: "state " + strconv.Quote(s.Path) + " timeout"}, yamlnode.Place{Where: w}, diag.Error,
		yamlnode.Fields{{Key: "after", Str: &t.After}, {Key: "target", Str: &t.Target, Pos: &t.TargetPos}}, nil)
	return t
}

// parseContextualRouting reads a state's contextual_routing: block.
func (p *fileParser) parseContextualRouting(kk, v *yaml.Node, w string) *ContextualRouting {
	cr := &ContextualRouting{Pos: p.Pos(kk)}
	p.Fields(v, w, yamlnode.Fields{
		{Key: "enabled", Bool: &cr.Enabled},
		{Key: "help_chat", Raw: &cr.HelpChat},
		{Key: "room_chat", Str: &cr.RoomChat},
		{Key: "meta_chat", Raw: &cr.MetaChat},
		{Key: "pending_plan_path", Str: &cr.PendingPlanPath},
		{Key: "plan_accept_intent", Str: &cr.PlanAcceptIntent},
		{Key: "plan_refine_intent", Str: &cr.PlanRefineIntent},
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
		p.Errf(p.Pos(v), RuleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", yamlnode.Describe(d))
		return o
	}
	if d.Kind != yaml.MappingNode {
		p.Errf(p.Pos(v), RuleType, "agent_off_ramp: must be `true` or an {agent, persona, banner} mapping: got %s", yamlnode.KindName(d))
		return o
	}
	o.Enabled = true
	p.Fields(v, where, yamlnode.Fields{{Key: "agent", Str: &o.Agent}, {Key: "persona", Str: &o.Persona}, {Key: "banner", Str: &o.Banner}})
	return o
}

// parseTransitionInto parses an arm into t (a zero Transition); viewPlace
// names its view in structure errors, starting with the place vat.
func (p *fileParser) parseTransitionInto(t *Transition, n *yaml.Node, at yamlnode.Place, viewPlace string, vat diag.Place) {
	t.Pos = p.Pos(n)
	d := yamlnode.Deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !yamlnode.IsNull(d) {
		// A bare target string is shorthand; story files take a mapping only.
		if p.Typed {
			p.Errf(p.Pos(n), RuleType, "%s: expected a mapping, got %s (write {target: %s})", at.String(), yamlnode.Describe(d), d.Value)
		}
		t.Target, t.TargetAt = p.Intern(d.Value), lineColOf(p.Pos(d))
		return
	}
	mp := at
	mp.Pre = "transition "
	var more TransitionMore // kept when a key sets it
	p.FieldsAt(n, mp, at, diag.Error, yamlnode.Fields{
		{Key: "target", Str: &t.Target, Read: func(_, v *yaml.Node) { t.TargetAt = lineColOf(p.Pos(v)) }},
		{Key: "when", Str: &t.When, Read: func(_, v *yaml.Node) { t.WhenAt = lineColOf(p.ValuePos(v)) }},
		{Key: "default", Bool: &more.Default},
		{Key: "effects", Read: func(_, v *yaml.Node) { t.Effects = p.parseEffects(v, at.Dot("effects")) }},
		{Key: "guard_hint", Str: &more.GuardHint},
		{Key: "view", Read: func(_, v *yaml.Node) { more.View = p.parseView(v, at.Dot("view"), viewPlace, vat) }},
		{Key: "emit", List: &more.Emit},
		{Key: "push_history", BoolP: &more.PushHistory},
	}, nil)
	t.More = kept(more)
}

func (p *fileParser) parseEffects(n *yaml.Node, where string) []*Effect {
	return p.parseEffectsAt(n, yamlnode.Place{Where: where})
}

// parseEffectsAt is parseEffects for the list named at in messages.
func (p *fileParser) parseEffectsAt(n *yaml.Node, at yamlnode.Place) []*Effect {
	return oneOrList(p, n, at, (*fileParser).parseEffectInto)
}

// oneOrList reads n, a list of Ts or (outside story files) one T as a
// mapping, into new Ts; not a list (reported) or an empty one is nil.
func oneOrList[T any](p *fileParser, n *yaml.Node, at yamlnode.Place, read func(p *fileParser, t *T, n *yaml.Node, at yamlnode.Place)) []*T {
	d := yamlnode.Deref(n)
	if d != nil && d.Kind == yaml.MappingNode {
		if p.Typed {
			p.Errf(p.Pos(n), RuleType, "%s: expected a list, got a mapping (write it as a list item: `- ` before its first key)", at.String())
		}
		t := new(T)
		read(p, t, n, at)
		return []*T{t}
	}
	var out []*T
	if d != nil && d.Kind == yaml.SequenceNode {
		out = make([]*T, 0, len(d.Content))
	}
	p.SeqAt(n, at, func(i int, it *yaml.Node) {
		t := new(T)
		read(p, t, it, at.Item(i))
		out = append(out, t)
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// parseEffectInto parses an effect into e (a zero Effect).
func (p *fileParser) parseEffectInto(e *Effect, n *yaml.Node, at yamlnode.Place) {
	e.Pos = p.Pos(n)
	if yamlnode.IsNull(n) {
		// Upstream decodes a null list item as a zero effect, a no-op.
		p.Warnf(p.Pos(n), RuleEffect, "effect %s: empty effect (it does nothing; remove the bare list item)", at.String())
		return
	}
	if d := yamlnode.Deref(n); d != nil && d.Kind == yaml.MappingNode {
		e.keys = make([]keyAt, 0, len(d.Content)/2)
	}
	mp := at
	mp.Pre = "effect "
	var more EffectMore // kept when a key sets it
	p.FieldsAt(n, mp, at, diag.Error, yamlnode.Fields{
		{Key: "when", Str: &e.When},
		{Key: "set", Read: func(_, v *yaml.Node) { e.Set = p.kvList(v, at.Dot("set")) }},
		{Key: "increment", Read: func(_, v *yaml.Node) { more.Increment = p.kvList(v, at.Dot("increment")) }},
		{Key: "say", Str: &e.Say},
		{Key: "invoke", Str: &e.Invoke},
		{Key: "id", Str: &more.ID},
		{Key: "with", Read: func(_, v *yaml.Node) {
			p.recordWith(e, v)
			if !yamlnode.IsNull(v) {
				if m, ok := p.Raw(v).(map[string]any); ok {
					e.With = m
				} else {
					p.Errf(p.Pos(v), RuleType, "%s: expected a mapping, got %s", at.Dot("with"), yamlnode.KindName(v))
				}
			}
		}},
		{Key: "bind", Read: func(_, v *yaml.Node) { more.Bind = p.kvList(v, at.Dot("bind")) }},
		{Key: "on_error", Str: &more.OnError},
		{Key: "emit", Str: &more.Emit},
		{Key: "background", Bool: &more.Background},
		{Key: "once", Bool: &more.Once},
		{Key: "on_complete", Read: func(_, v *yaml.Node) { more.OnComplete = p.parseEffects(v, at.Dot("on_complete")) }},
		{Key: "target", Str: &more.Target},
		{Key: "emit_intent", Str: &more.EmitIntent},
		{Key: "slots", Read: func(_, v *yaml.Node) { more.Slots = p.kvList(v, at.Dot("slots")) }},
		{Key: "effects", Read: func(_, v *yaml.Node) { more.Effects = p.parseEffects(v, at.Dot("effects")) }},
		{Key: "agent", Str: &more.Agent},
		{Key: "selection", Read: func(_, v *yaml.Node) { more.Selection = p.parseSelection(v, at.Dot("selection")) }},
		{Key: "timeout", Str: &more.Timeout},
	}, func(key string, _, v *yaml.Node) {
		e.Written = e.Written.With(key)
		if blankValue(key, v) {
			e.Blank = e.Blank.With(key)
		}
		vp := p.ValuePos(v)
		e.keys = append(e.keys, keyAt{key: key, line: int32(vp.Line), col: int32(vp.Col)})
	})
	e.More = kept(more)
	if len(e.keys) == 0 {
		e.keys = nil
	}
}

// blankValue reports whether v, the value of the effect key key, holds
// nothing of the type key reads: null or nothing, an empty mapping, list
// or string. A value of another type (say: {}, set: "") is not blank: the
// loader reports its type error.
func blankValue(key string, v *yaml.Node) bool {
	if yamlnode.IsNull(v) {
		return true
	}
	d := yamlnode.Deref(v)
	switch key {
	case "set", "increment", "with", "bind", "slots", "selection":
		return d.Kind == yaml.MappingNode && len(d.Content) == 0
	case "on_complete", "effects":
		return d.Kind == yaml.SequenceNode && len(d.Content) == 0
	case "background", "once":
		return false
	}
	return d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" && d.Value == ""
}

func (p *fileParser) parseSelection(v *yaml.Node, where string) *Selection {
	s := &Selection{Pos: p.Pos(v), Keys: map[string]Pos{}}
	p.FieldsAt(v, yamlnode.Place{Where: "selection"}, yamlnode.Place{Where: where}, diag.Error, yamlnode.Fields{
		{Key: "profile", Str: &s.Profile},
		{Key: "model", Str: &s.Model},
		{Key: "effort", Str: &s.Effort},
		{Key: "evidence", Str: &s.Evidence},
		{Key: "fallback_profile", Str: &s.FallbackProfile},
	}, func(key string, _, v *yaml.Node) { s.Keys[key] = p.Pos(v) })
	return s
}

// kept returns a heap copy of v, nil when v is zero.
func kept[T any](v T) *T {
	if reflect.ValueOf(v).IsZero() {
		return nil
	}
	m := v
	return &m
}
