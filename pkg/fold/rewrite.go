package fold

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// Upstream's fold rewrites a child's states at every import level above
// it: at level x (the merge of x into its importer) a name of x's folded
// table gets the <alias>__ prefix. Once a level prefixes a name, every
// level above has the prefixed name in its table too, so a name used in
// a state of scope m ends as x.pre+name for the lowest level x at or above
// m whose table has it (lift), and each state is rewritten once.

// lift is name as the top sees it from scope m (see above); has tests a
// level's folded table.
func lift(m *node, name string, has func(x *node, name string) bool) string {
	for x := m; x.im != nil; x = x.parent {
		if has(x, name) {
			return x.pre + name
		}
	}
	return name
}

// viaKid reports whether name is <alias>__<rest> for a kid k of x with
// rest in k's table.
func viaKid(x *node, name string, has func(x *node, name string) bool) bool {
	for i := 0; ; {
		j := strings.Index(name[i:], "__")
		if j < 0 {
			return false
		}
		p := i + j
		if k := x.byAlias[name[:p]]; k != nil && has(k, name[p+2:]) {
			return true
		}
		i = p + 1
	}
}

func hasWorld(x *node, name string) bool { return x.world[name] || viaKid(x, name, hasWorld) }

// liftWorld is lift for a world key; a reserved one is in no table.
func liftWorld(m *node, name string) string {
	if story.IsReservedWorld(name) {
		return name
	}
	return lift(m, name, hasWorld)
}
func hasIntent(x *node, name string) bool { return x.intents[name] || viaKid(x, name, hasIntent) }
func hasAgent(x *node, name string) bool  { return x.agents[name] || viaKid(x, name, hasAgent) }
func hasIface(x *node, name string) bool  { return x.ifaces[name] || viaKid(x, name, hasIface) }

// answers: the intents a level renames are its table's and those its
// import exports to it.
func answers(x *node, name string) bool {
	return hasIntent(x, name) || slices.Contains(x.im.ExportIntent, name)
}

// rewriter rewrites the states of one scope (a node's own states, or the
// wrappers its merges made) for every import level above it: world keys,
// intents, personas and host interfaces are renamed, and targets are
// rewritten level by level, each level's problem reported in its merge.
type rewriter struct {
	fs *folder
	m  *node
}

// text renames the world references of a template, guard or expression:
// each world.<key> not preceded by an identifier character or a dot (so
// foo.world.x and myworld.x are left alone), key an identifier. One scan
// with no regexp (FuzzWorldReferenceRewrite holds it to the regexp
// `(^|[^A-Za-z0-9_.])world\.([A-Za-z_][A-Za-z0-9_]*)` it was written as);
// the text is copied only when a key is renamed.
func (rw *rewriter) text(s string) string {
	var out strings.Builder
	last := 0
	for from := 0; ; {
		i := strings.Index(s[from:], "world.")
		if i < 0 {
			break
		}
		at := from + i + len("world.")
		from = at
		if j := at - len("world."); j > 0 && (isWordByte(s[j-1]) || s[j-1] == '.') {
			continue
		}
		if at == len(s) || !isWordByte(s[at]) || s[at] >= '0' && s[at] <= '9' {
			continue
		}
		end := at + 1
		for end < len(s) && isWordByte(s[end]) {
			end++
		}
		from = end
		key := s[at:end]
		name := liftWorld(rw.m, key)
		if name == key {
			continue
		}
		if last == 0 {
			out.Grow(len(s) + 4*(len(name)-len(key)))
		}
		out.WriteString(s[last:at])
		out.WriteString(name)
		last = end
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// isWordByte: b is one of [A-Za-z0-9_].
func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// key renames a world key (or a dotted path into one).
func (rw *rewriter) key(k string) string {
	first, rest, dotted := strings.Cut(k, ".")
	name := liftWorld(rw.m, first)
	if name == first {
		return k
	}
	if dotted {
		return name + "." + rest
	}
	return name
}

// anyValue is a raw value with every string rewritten (a copy).
func (rw *rewriter) anyValue(v any) any { return jsonvalue.MapStrings(v, rw.text, false) }

// agent renames a persona.
func (rw *rewriter) agent(name string) string { return lift(rw.m, name, hasAgent) }

// rewrite rewrites every state of the folded tree once, from its scope,
// and sets its path.
func (fs *folder) rewrite(root *node) {
	depth := map[*story.State]int{}
	for _, s := range root.st.AllStates() {
		m := fs.scope[s]
		s.Path = m.at + s.Path
		d := 0
		if s.Parent != nil && fs.scope[s.Parent] == m {
			d = depth[s.Parent] + 1
		}
		depth[s] = d
		if m.im != nil {
			(&rewriter{fs: fs, m: m}).state(s, d)
		}
	}
}

// target rewrites t, written at depth in owner, through each import level
// from the rewriter's scope up: an @exit: is mapped by that level's import
// (exit gets each mapping used), a bare name becomes relative, a template
// is kept as written, and a `..`
// walking above the level's namespace is reported in its merge.
func (rw *rewriter) target(t string, depth int, p story.Pos, owner *story.State, exit func(at *node, was string, ex *story.ImportExit)) string {
	for x := rw.m; x.im != nil; x, depth = x.parent, depth+1 {
		bad := func(format string, a ...any) {
			x.targetErrs = append(x.targetErrs, Problem{Alias: x.chain, Pos: p, Message: fmt.Sprintf(format, a...)})
		}
		path := owner.Path[len(x.at):]
		switch {
		case t == "" || t == ".":
			return t
		case story.IsTemplated(t):
			// kept as written, its world. references too: upstream
			// renders a child's templated target against the folded
			// world, so world.k reads the importer's k (conformance
			// import-target-template-world)
			return t
		case strings.HasPrefix(t, "@exit:"):
			name := strings.TrimPrefix(t, "@exit:")
			ex := x.im.Exits[name]
			if ex == nil || ex.To == "" {
				bad("state %q: target %q: the import maps no exits.%s.to (the child uses @exit:%s but the parent does not map it)", path, t, name, name)
				continue
			}
			if exit != nil {
				exit(x, t, ex)
			}
			t = ex.To
		case strings.HasPrefix(t, ".."):
			n := story.Climbs(t)
			if n <= depth+1 {
				return t // and at every level above, deeper
			}
			bad("state %q: target %q walks above the child's namespace (depth %d, %d `..` segments); cross-boundary parent targets are forbidden", path, t, depth, n)
		case strings.ContainsAny(t, "./"):
			return t
		default:
			return strings.Repeat("../", depth+1) + t
		}
	}
	return t
}

// exitUse records that site's target went through the exit mapping ex.
func (rw *rewriter) exitUse(site any, was string, ex *story.ImportExit) {
	rw.fs.exitsVia[site] = append(rw.fs.exitsVia[site], ExitUse{Name: strings.TrimPrefix(was, "@exit:"), Pos: ex.Pos})
}

// exitSet is the set effect an exit mapping of level at appends, rewritten
// for the levels above at (the parent's scope); nil when it sets nothing.
func (rw *rewriter) exitSet(at *node, ex *story.ImportExit) *story.Effect {
	if len(ex.Set) == 0 {
		return nil
	}
	e := &story.Effect{Set: copyKVs(ex.Set), Written: story.EffectKeysOf("set"), Pos: ex.Pos}
	e.SetKeyPos("set", ex.Pos)
	if at.parent.im != nil {
		(&rewriter{fs: rw.fs, m: at.parent}).kvs(e.Set, true)
	}
	return e
}

func (rw *rewriter) view(v *story.View) {
	if v == nil {
		return
	}
	v.Template = rw.viewText(v.Template)
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
		el.When = rw.viewText(el.When)
		el.Text = rw.viewText(el.Text)
		el.Body = jsonvalue.MapStrings(el.Body, rw.viewText, false)
	}
}

// state rewrites s (not its children) in place.
func (rw *rewriter) state(s *story.State, depth int) {
	s.Description = rw.text(s.Description)
	if m := s.More; m != nil {
		if story.IsTemplated(m.Initial) {
			m.Initial = rw.text(m.Initial)
		}
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
		t.Target = rw.target(t.Target, depth, t.TargetPos, s, nil)
	}
	if r := s.AgentOffRamp(); r != nil {
		r.Agent, r.Persona = rw.agent(r.Agent), rw.agent(r.Persona)
	}
	rw.arcs(s, depth)
}

// spelling is one name an arc answers to at one level.
type spelling struct {
	typed, arc string
	depth      int
}

// arcs renames the state's intents, records their spellings (upstream's
// IntentAliases: each level's name of a renamed intent maps to its final
// name, a higher level's winning) and rewrites arms.
func (rw *rewriter) arcs(s *story.State, depth int) {
	renamed := map[string]string{}
	var spelled []spelling
	rename := func(name string) string {
		if n, ok := renamed[name]; ok {
			return n
		}
		if name == "*" {
			return name
		}
		x := rw.intentLevel(name)
		if x == nil {
			return name // an undeclared state-local intent keeps its name (import-local-intent)
		}
		final := x.pre + name
		renamed[name] = final
		for y := x; y.im != nil; y = y.parent {
			if !rw.fs.repeat(rw.m, 1) {
				break
			}
			spelled = append(spelled, spelling{typed: final[len(y.pre):], arc: final, depth: y.depth})
		}
		return final
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
	m := make(map[string]string, len(spelled))
	slices.SortStableFunc(spelled, func(a, b spelling) int { return cmp.Compare(b.depth, a.depth) })
	for _, sp := range spelled {
		m[sp.typed] = sp.arc
	}
	rw.fs.aliases[s] = m
}

func (rw *rewriter) arm(t *story.Transition, depth int, owner *story.State) {
	t.When = rw.text(t.When)
	if t.More != nil {
		t.More.GuardHint = rw.text(t.More.GuardHint)
	}
	rw.view(t.View())
	t.Effects = rw.effects(t.Effects, depth, owner)
	t.Target = rw.target(t.Target, depth, t.TargetPos(), owner, func(at *node, was string, ex *story.ImportExit) {
		rw.exitUse(t, was, ex)
		if e := rw.exitSet(at, ex); e != nil {
			t.Effects = append(t.Effects, e)
		}
	})
}

// effects rewrites effects in place.
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
			// an on_complete target's exit is mapped, but its set: is
			// not applied, as upstream (conformance
			// oncomplete-exit-no-set)
			e.More.Target = rw.target(e.Target(), depth, e.PosOf("target"), owner, func(at *node, was string, ex *story.ImportExit) {
				rw.exitUse(e, was, ex)
			})
		}
		out = append(out, e)
	}
	return out
}

func (rw *rewriter) effect(e *story.Effect, depth int, owner *story.State) {
	e.When = rw.text(e.When)
	e.Say = rw.text(e.Say)
	if rw.fs.finalKeys[e] {
		for i := range e.Set {
			e.Set[i].Value = rw.anyValue(e.Set[i].Value)
		}
	} else {
		rw.kvs(e.Set, true)
	}
	m := e.More
	if m != nil {
		rw.kvs(m.Increment, true)
		rw.kvs(m.Bind, true)
		rw.kvs(m.Slots, false)
		m.ID = rw.text(m.ID)
		m.EmitIntent = rw.text(m.EmitIntent)
	}
	if rest, ok := strings.CutPrefix(e.Invoke, "iface."); ok {
		if name, op, ok := strings.Cut(rest, "."); ok {
			if nn := lift(rw.m, name, hasIface); nn != name {
				e.Invoke = "iface." + nn + "." + op
			}
		}
	}
	if e.With != nil {
		rw.rebase(e.With)
		if a, ok := e.With["agent"].(string); ok {
			e.With["agent"] = rw.agent(a)
		}
		e.With = rw.anyValue(e.With).(map[string]any)
	}
	if m == nil {
		return
	}
	if m.OnError != "" {
		m.OnError = rw.target(m.OnError, depth, e.PosOf("on_error"), owner, nil)
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
