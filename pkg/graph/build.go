package graph

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
)

// Build draws a folded story: every state a node (compound, parallel and
// imported states clusters), every move an edge.
func Build(f *fold.Folded) *Graph {
	st := f.Story
	b := &builder{f: f, g: &Graph{Title: cmp.Or(st.App.Title, st.App.ID)}, byPath: map[string]*Node{},
		ids: map[string]bool{}, next: map[string]int{}, extra: map[string]*Node{}, exits: exitTargets(f)}
	b.g.Top = b.nodes(st.States, nil)
	for _, s := range st.AllStates() {
		b.moves(s)
	}
	if n := b.byPath[strings.ReplaceAll(st.Root, "/", ".")]; n != nil {
		n.Root = true
		b.g.Start = n
	}
	b.g.Top = append(b.g.Top, b.extraOrder...)
	b.g.Slots = requiredSlots(st)
	return b.g
}

// requiredSlots maps each intent with required slots that have no
// default to their names.
func requiredSlots(st *story.Story) map[string][]string {
	out := map[string][]string{}
	add := func(name string, in *story.Intent) {
		if _, done := out[name]; done || in == nil {
			return
		}
		var req []string
		for _, sn := range in.SlotOrder {
			if sl := in.Slots[sn]; sl != nil && sl.Required && sl.Default == nil {
				req = append(req, sn)
			}
		}
		out[name] = req
	}
	for _, name := range slices.Sorted(maps.Keys(st.Intents)) {
		add(name, st.Intents[name])
	}
	for _, s := range st.AllStates() {
		for _, name := range slices.Sorted(maps.Keys(s.Intents)) {
			add(name, s.Intents[name])
		}
	}
	maps.DeleteFunc(out, func(_ string, req []string) bool { return len(req) == 0 })
	return out
}

type builder struct {
	f      *fold.Folded
	g      *Graph
	byPath map[string]*Node
	ids    map[string]bool
	next   map[string]int // the next number id tries for a base
	// extra holds the exit, templated and missing target nodes by kind
	// and text; extraOrder in the order first used.
	extra      map[string]*Node
	extraOrder []*Node
	exits      map[story.Pos]string // exitTargets
}

func (b *builder) nodes(ss []*story.State, parent *Node) []*Node {
	out := make([]*Node, 0, len(ss))
	for _, s := range ss {
		n := &Node{ID: b.id("s_", s.Path), Path: s.Path, Label: s.Name, Parent: parent,
			Terminal: s.Terminal, Pos: s.Pos, TemplatedInitial: story.IsTemplated(s.Initial()),
			Initial: parent != nil && s.Parent != nil && s.Parent.Initial() == s.Name}
		info := b.f.Info(s.Path)
		switch {
		case len(s.Children) == 0:
			n.Kind = KindState
		case info != nil && info.Wrapper:
			n.Kind = KindImport
			n.Source = b.source(s.Path)
		case s.Parallel || s.Type == "parallel":
			n.Kind = KindParallel
		default:
			n.Kind = KindCompound
		}
		b.byPath[s.Path] = n
		n.Children = b.nodes(s.Children, n)
		out = append(out, n)
	}
	return out
}

// source is the imports: source of the wrapper at path.
func (b *builder) source(path string) string {
	for _, a := range b.f.Aliases() {
		if a.Path == path {
			return a.Source
		}
	}
	return ""
}

// maxIDText bounds the part of an identifier made from a name: every edge
// names its ends by identifier, so an identifier as long as a state's name
// made a drawing grow with the name times its arms. The label keeps the
// whole name.
const maxIDText = 64

// id returns a unique identifier for text: prefix, then text's first
// maxIDText characters with every one that is not a letter, digit or
// underscore replaced.
func (b *builder) id(prefix, text string) string {
	var t strings.Builder
	for _, r := range text {
		if t.Len() >= maxIDText {
			break
		}
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			t.WriteRune(r)
		} else {
			t.WriteByte('_')
		}
	}
	base := prefix + t.String()
	id := base
	// numbered from where the last id of this base stopped: thousands of
	// names of one base (non-ASCII names all become underscores) tried
	// every number before theirs
	for i := max(b.next[base], 2); b.ids[id]; i++ {
		id = base + "_" + strconv.Itoa(i)
		b.next[base] = i + 1
	}
	b.ids[id] = true
	return id
}

func (b *builder) moves(s *story.State) {
	for _, on := range s.On {
		for i, t := range on.Arms {
			if t == nil {
				continue
			}
			e := &Edge{Kind: EdgeArc, From: s.Path, Intent: on.Intent, Arm: i, Guard: t.When, Target: t.Target, Pos: t.Pos}
			if name, ok := b.exits[t.Pos]; ok {
				e.Kind, e.Exit = EdgeExit, name
			}
			b.add(s, e)
			b.effects(s, t.Effects, "")
		}
	}
	if to := s.Timeout(); to != nil {
		b.add(s, &Edge{Kind: EdgeTimeout, From: s.Path, After: to.After, Target: to.Target, Pos: to.Pos})
	}
	b.effects(s, s.OnEnter, "")
	b.effects(s, s.OnExit(), "")
}

// effects adds the on_error and on_complete edges of effects run in s;
// job is the handler of the background effect whose on_complete list
// holds them ("" outside one).
func (b *builder) effects(s *story.State, es []*story.Effect, job string) {
	for _, e := range es {
		if e == nil {
			continue
		}
		if target := e.OnError(); target != "" {
			b.add(s, &Edge{Kind: EdgeOnError, From: s.Path, Intent: e.Invoke, Target: target, Pos: e.PosOf("on_error")})
		}
		if target := e.Target(); target != "" && job != "" {
			ed := &Edge{Kind: EdgeOnComplete, From: s.Path, Intent: job, Target: target, Pos: e.PosOf("target")}
			if name, ok := b.exits[e.Pos]; ok {
				ed.Exit = name
			}
			b.add(s, ed)
		}
		b.effects(s, e.Effects(), job)
		b.effects(s, e.OnComplete(), cmp.Or(e.Invoke, "job"))
	}
}

// add resolves e's target from s and adds the edge.
func (b *builder) add(s *story.State, e *Edge) {
	e.tail = b.byPath[s.Path]
	t := strings.TrimSpace(e.Target)
	switch {
	case t == "" || t == ".":
		e.To, e.head = s.Path, e.tail
	case story.IsTemplated(t):
		if to := b.templateStates(s.Path, t); len(to) > 0 {
			for _, p := range to {
				c := *e
				c.To, c.head, c.Chosen = p, b.byPath[p], true
				b.leaving(&c)
				b.g.Edges = append(b.g.Edges, &c)
			}
			return
		}
		e.head = b.other(KindDynamic, t)
	case strings.HasPrefix(t, "@exit:"):
		name := strings.TrimPrefix(t, "@exit:")
		e.head = b.other(KindExit, name)
		if e.Kind == EdgeArc {
			e.Kind = EdgeExit
		}
		e.Exit = cmp.Or(e.Exit, name)
	default:
		p, err := story.ResolvePath(s.Path, t)
		if n := b.byPath[p]; err == nil && n != nil {
			e.To, e.head = p, n
			b.leaving(e)
		} else {
			e.head = b.other(KindMissing, t)
		}
	}
	b.g.Edges = append(b.g.Edges, e)
}

// leaving marks an arm (or on_complete target) that leaves an imported
// child's wrapper, which the fold made of an @exit:<name>, and names the
// exit when it can.
func (b *builder) leaving(e *Edge) {
	if e.Kind != EdgeArc && e.Kind != EdgeOnComplete {
		return
	}
	if e.Kind == EdgeArc && e.Exit != "" {
		return // the exit name is known from the child
	}
	for w := e.tail; w != nil; w = w.Parent {
		if w.Kind != KindImport || e.head.within(w) {
			continue
		}
		if e.Kind == EdgeArc {
			e.Kind = EdgeExit
		}
		if e.Exit == "" {
			var names []string
			for name, ex := range b.importExits(w.Path) {
				if ex != nil && ex.To == strings.TrimSpace(e.Target) {
					names = append(names, name)
				}
			}
			if len(names) == 1 {
				e.Exit = names[0]
			}
		}
		return
	}
}

// importExits is the exits: block of the import whose wrapper is at path.
func (b *builder) importExits(path string) map[string]*story.ImportExit {
	info := b.f.Info(path)
	if info == nil || info.Story == nil {
		return nil
	}
	name := path[strings.LastIndexByte(path, '.')+1:]
	if im := info.Story.Imports[name]; im != nil {
		return im.Exits
	}
	return nil
}

// quotedName is a quoted state name inside a template ('done' or "done").
var quotedName = &lazyre.Regexp{Expr: `'([^'\s{}%]+)'|"([^"\s{}%]+)"`}

// templateStates lists the states a templated target can choose by
// quoted name, resolved from base, in order of first appearance.
func (b *builder) templateStates(base, tpl string) []string {
	var out []string
	for _, m := range quotedName.FindAllStringSubmatch(tpl, -1) {
		p, err := story.ResolvePath(base, m[1]+m[2])
		if err == nil && b.byPath[p] != nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// other returns the node of an exit, templated or missing target, made
// on first use.
func (b *builder) other(kind NodeKind, text string) *Node {
	key := strconv.Itoa(int(kind)) + ":" + text
	if n := b.extra[key]; n != nil {
		return n
	}
	n := &Node{Kind: kind, Path: text, Label: text}
	switch kind {
	case KindExit:
		n.ID, n.Label = b.id("x_", text), "@exit:"+text
	case KindDynamic:
		n.ID = b.id("t_", strconv.Itoa(len(b.extra)))
	default:
		n.ID, n.Label = b.id("m_", strconv.Itoa(len(b.extra))), text+" (no such state)"
	}
	b.extra[key] = n
	b.extraOrder = append(b.extraOrder, n)
	return n
}

// exitTargets maps the position of every arm and effect of the import
// tree that targets @exit:<name>, as written, to that name.
func exitTargets(f *fold.Folded) map[story.Pos]string {
	out := map[story.Pos]string{}
	note := func(target string, pos story.Pos) {
		if name, ok := strings.CutPrefix(strings.TrimSpace(target), "@exit:"); ok {
			out[pos] = name
		}
	}
	for _, a := range f.Aliases() {
		if a.Story == nil {
			continue
		}
		states := a.Story.AllStates()
		for _, s := range states {
			for _, on := range s.On {
				for _, t := range on.Arms {
					if t != nil {
						note(t.Target, t.Pos)
					}
				}
			}
		}
		for p := range (story.EffectWalk{}).States(states...) {
			note(p.Effect.Target(), p.Effect.Pos)
		}
	}
	return out
}
