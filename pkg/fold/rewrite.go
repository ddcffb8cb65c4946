package fold

import (
	"maps"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
)

// rewriter rewrites one child's states for the fold under alias: the
// child's world keys get the <alias>__ prefix, its intents, personas and
// host interfaces are renamed, and targets are rewritten.
type rewriter struct {
	fs      *folder
	alias   string
	chain   string
	exits   map[string]*story.ImportExit
	world   map[string]bool
	intents map[string]bool
	agents  map[string]bool
	ifaces  map[string]bool
}

// worldRef matches a world.<key> reference not preceded by an identifier
// character or a dot (so foo.world.x and myworld.x are left alone).
var worldRef = &lazyre.Regexp{Expr: `(^|[^A-Za-z0-9_.])world\.([A-Za-z_][A-Za-z0-9_]*)`}

// text prefixes with <alias>__ the world references (worldRef) of a
// template, guard or expression whose key the child declares.
func (rw *rewriter) text(s string) string {
	if !strings.Contains(s, "world.") {
		return s
	}
	return worldRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := worldRef.FindStringSubmatch(m)
		if !rw.world[sub[2]] {
			return m
		}
		return sub[1] + "world." + rw.alias + "__" + sub[2]
	})
}

// key renames a world key (or a dotted path into one) the child declares.
func (rw *rewriter) key(k string) string {
	first, rest, dotted := strings.Cut(k, ".")
	if !rw.world[first] {
		return k
	}
	if dotted {
		return rw.alias + "__" + first + "." + rest
	}
	return rw.alias + "__" + first
}

// anyValue is a raw value with every string rewritten (a copy).
func (rw *rewriter) anyValue(v any) any { return jsonvalue.MapStrings(v, rw.text, false) }

func (rw *rewriter) intent(name string) (string, bool) {
	if name == "*" || !rw.intents[name] {
		return name, false
	}
	return rw.alias + "__" + name, true
}

// target rewrites a target of a state at depth (0 = a direct child of the
// wrapper), returning the exit when it was @exit:<name>.
func (rw *rewriter) target(t string, depth int, p story.Pos, owner *story.State) (string, *story.ImportExit) {
	switch {
	case t == "" || t == ".":
		return t, nil
	case story.IsTemplated(t):
		return rw.text(t), nil
	case strings.HasPrefix(t, "@exit:"):
		name := strings.TrimPrefix(t, "@exit:")
		ex := rw.exits[name]
		if ex == nil || ex.To == "" {
			rw.fs.errf(rw.chain, p, "state %q: target %q: the import maps no exits.%s.to (the child uses @exit:%s but the parent does not map it)", owner.Path, t, name, name)
			return t, nil
		}
		return ex.To, ex
	case strings.HasPrefix(t, ".."):
		n, rest := 0, t
		for strings.HasPrefix(rest, "../") {
			n++
			rest = rest[3:]
		}
		if rest == ".." {
			n++
		}
		if n > depth+1 {
			rw.fs.errf(rw.chain, p, "state %q: target %q walks above the child's namespace (depth %d, %d `..` segments); cross-boundary parent targets are forbidden", owner.Path, t, depth, n)
		}
		return t, nil
	case strings.ContainsAny(t, "./"):
		return t, nil
	}
	return strings.Repeat("../", depth+1) + t, nil
}

// exitUse records that site's target went through the exit mapping ex.
func (rw *rewriter) exitUse(site any, was string, ex *story.ImportExit) {
	if ex == nil {
		return
	}
	rw.fs.exitsVia[site] = append(rw.fs.exitsVia[site], ExitUse{Name: strings.TrimPrefix(was, "@exit:"), Pos: ex.Pos})
}

// exitSet is the set effect an exit mapping appends (parent scope).
func (rw *rewriter) exitSet(ex *story.ImportExit) *story.Effect {
	if ex == nil || len(ex.Set) == 0 {
		return nil
	}
	e := &story.Effect{Set: copyKVs(ex.Set), Written: story.EffectKeysOf("set"), Pos: ex.Pos}
	e.SetKeyPos("set", ex.Pos)
	return e
}

func (rw *rewriter) view(v *story.View) {
	if v == nil {
		return
	}
	v.Template = rw.text(v.Template)
	rw.elements(v.Elements)
	for _, els := range v.Blocks {
		rw.elements(els)
	}
}

func (rw *rewriter) elements(els []*story.ViewElement) {
	for _, el := range els {
		if el == nil {
			continue
		}
		el.When = rw.text(el.When)
		el.Text = rw.text(el.Text)
		el.Body = rw.anyValue(el.Body)
	}
}

// state rewrites s and its subtree in place.
func (rw *rewriter) state(s *story.State, depth int) {
	s.Description = rw.text(s.Description)
	if story.IsTemplated(s.Initial) {
		s.Initial = rw.text(s.Initial)
	}
	if m := s.More; m != nil {
		m.Footer = rw.text(m.Footer)
	}
	rw.view(s.View)
	for i := range s.RelevantWorld {
		s.RelevantWorld[i].Name = rw.key(s.RelevantWorld[i].Name)
	}
	s.OnEnter = rw.effects(s.OnEnter, depth, s)
	if m := s.More; m != nil {
		m.OnExit = rw.effects(m.OnExit, depth, s)
	}
	if t := s.Timeout(); t != nil {
		t.After = rw.text(t.After)
		t.Target, _ = rw.target(t.Target, depth, t.TargetPos, s)
	}
	if r := s.AgentOffRamp(); r != nil {
		r.Agent, r.Persona = rw.agent(r.Agent), rw.agent(r.Persona)
	}
	rw.arcs(s, depth)
	for _, ch := range s.Children {
		rw.state(ch, depth+1)
	}
}

// arcs renames the state's intents, records their aliases and rewrites arms.
func (rw *rewriter) arcs(s *story.State, depth int) {
	renamed := map[string]string{}
	rename := func(name string) string {
		if n, ok := renamed[name]; ok {
			return n
		}
		// an undeclared state-local intent keeps its name (import-local-intent)
		n, ok := rw.intent(name)
		if ok {
			renamed[name] = n
		}
		return n
	}
	old := s.On
	s.On = make([]story.OnIntent, 0, len(old))
	for _, o := range old {
		nn := rename(o.Intent)
		for _, t := range o.Arms {
			if t == nil {
				continue
			}
			rw.arm(t, depth, s)
		}
		// Intents renamed to one name share one entry.
		s.AddOn(nn, o.Pos, o.Arms...)
	}
	if len(s.Intents) > 0 {
		li := make(map[string]*story.Intent, len(s.Intents))
		for name, in := range s.Intents {
			nn := rename(name)
			if in != nil && nn != name {
				in.Name = nn
			}
			li[nn] = in
		}
		s.Intents = li
		for i, name := range s.IntentOrder {
			s.IntentOrder[i] = rename(name)
		}
	}
	if len(renamed) == 0 {
		return
	}
	m := rw.fs.aliases[s]
	if m == nil {
		m = map[string]string{}
	}
	// Chase the spellings of earlier folds forward, then add this fold's.
	for typed, arc := range m {
		if n, ok := renamed[arc]; ok {
			m[typed] = n
		}
	}
	maps.Copy(m, renamed)
	rw.fs.aliases[s] = m
}

func (rw *rewriter) arm(t *story.Transition, depth int, owner *story.State) {
	t.When = rw.text(t.When)
	if t.More != nil {
		t.More.GuardHint = rw.text(t.More.GuardHint)
	}
	rw.view(t.View())
	t.Effects = rw.effects(t.Effects, depth, owner)
	var ex *story.ImportExit
	was := t.Target
	t.Target, ex = rw.target(t.Target, depth, t.TargetPos, owner)
	rw.exitUse(t, was, ex)
	if e := rw.exitSet(ex); e != nil {
		t.Effects = append(t.Effects, e)
	}
}

// effects rewrites effects in place, with an exit's set: before an @exit:.
func (rw *rewriter) effects(list []*story.Effect, depth int, owner *story.State) []*story.Effect {
	if list == nil {
		return nil
	}
	out := make([]*story.Effect, 0, len(list))
	for _, e := range list {
		if e == nil {
			out = append(out, e)
			continue
		}
		rw.effect(e, depth, owner)
		if e.Target() != "" {
			var ex *story.ImportExit
			was := e.Target()
			e.More.Target, ex = rw.target(e.Target(), depth, e.PosOf("target"), owner)
			rw.exitUse(e, was, ex)
			if se := rw.exitSet(ex); se != nil {
				out = append(out, se)
			}
		}
		out = append(out, e)
	}
	return out
}

func (rw *rewriter) effect(e *story.Effect, depth int, owner *story.State) {
	e.When = rw.text(e.When)
	e.Say = rw.text(e.Say)
	rw.kvs(e.Set, true)
	m := e.More
	if m != nil {
		rw.kvs(m.Increment, true)
		rw.kvs(m.Bind, true)
		rw.kvs(m.Slots, false)
		m.ID = rw.text(m.ID)
		m.EmitIntent = rw.text(m.EmitIntent)
	}
	if rest, ok := strings.CutPrefix(e.Invoke, "iface."); ok {
		if name, op, ok := strings.Cut(rest, "."); ok && rw.ifaces[name] {
			e.Invoke = "iface." + rw.alias + "__" + name + "." + op
		}
	}
	if e.With != nil {
		if a, ok := e.With["agent"].(string); ok {
			e.With["agent"] = rw.agent(a)
		}
		e.With = rw.anyValue(e.With).(map[string]any)
	}
	if m == nil {
		return
	}
	if m.OnError != "" {
		m.OnError, _ = rw.target(m.OnError, depth, e.PosOf("on_error"), owner)
	}
	m.OnComplete = rw.effects(m.OnComplete, depth, owner)
	m.Effects = rw.effects(m.Effects, depth, owner)
}

// kvs rewrites a KV list's values, and its keys when they are world keys.
func (rw *rewriter) kvs(list []story.KV, keys bool) {
	for i := range list {
		if keys {
			list[i].Key = rw.key(list[i].Key)
		}
		list[i].Value = rw.anyValue(list[i].Value)
	}
}

// agent renames a persona the child declares.
func (rw *rewriter) agent(name string) string {
	if rw.agents[name] {
		return rw.alias + "__" + name
	}
	return name
}
