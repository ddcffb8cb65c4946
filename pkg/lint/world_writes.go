package lint

import (
	"iter"
	"path"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// worldKeys is the set of world keys a story's tree gives a value, with
// glob patterns for those a phase template writes under a placeholder
// (cycle__{id} reads as cycle__*).
type worldKeys struct {
	names    map[string]bool
	patterns []string
	expanded bool // the story being added is a phases: expansion
	dynamic  bool // a key is written whose name is a {{ }} template
}

func (k *worldKeys) has(key string) bool {
	if k.names[key] {
		return true
	}
	return slices.ContainsFunc(k.patterns, func(p string) bool { ok, _ := path.Match(p, key); return ok })
}

// add records a written key: a dotted path writes its first segment; a
// key holding a phase placeholder becomes a pattern (in an expansion, a
// {param} left is literal). It reports false for a key whose name is a
// {{ }} template: any key may be written.
func (k *worldKeys) add(key string) bool {
	holes := key
	if !k.expanded {
		holes = story.PhaseParamRe.ReplaceAllString(story.PhaseRefRe.ReplaceAllString(key, "\x00"), "\x00")
	}
	if strings.Contains(holes, "{{") || strings.Contains(holes, "{%") {
		return false
	}
	first, _, _ := strings.Cut(holes, ".")
	if holes != key {
		k.patterns = append(k.patterns, globQuote(first, "\x00"))
	} else {
		k.names[first] = true
	}
	return true
}

// globQuote escapes the glob metacharacters of s and turns each hole
// into a *.
func globQuote(s, hole string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case string(r) == hole:
			b.WriteByte('*')
		case r == '*' || r == '?' || r == '[' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// knownWorld returns the world keys a read in c's story may name without
// a warning: the injected keys and every key declared or written anywhere
// in the load's import tree, worked out once per load. names are the
// did-you-mean candidates, the story's own keys first. ok is false when a
// key name is a {{ }} template or a child did not load.
func knownWorld(c *checker) (known *worldKeys, names []string, ok bool) {
	if c.src.world == nil {
		c.src.world = treeWorld(c.src, c.st)
	}
	known = c.src.world
	if known.dynamic {
		return nil, nil, false
	}
	st := c.st
	for _, v := range st.World {
		names = append(names, v.Name)
	}
	for k := range known.names {
		if st.Var(k) == nil {
			names = append(names, k)
		}
	}
	slices.Sort(names[len(st.World):])
	return known, names, true
}

// treeWorld is the keys of knownWorld for the import tree st belongs to.
func treeWorld(src *sources, st *story.Story) *worldKeys {
	known := &worldKeys{names: map[string]bool{}}
	for _, k := range story.InjectedWorld() { // testdata/world-key/injected
		known.names[k] = true
	}
	top := st
	for top.Importer() != nil {
		top = top.Importer()
	}
	for _, s := range append([]*story.Story{top}, top.Children()...) {
		if !storyWrites(src, s, known) {
			known.dynamic = true
		}
	}
	return known
}

// expandedStory is st with its phases: expanded (the load's one
// expansion), nil when st has none or they do not expand (rule phases
// reports why).
func (l *sources) expandedStory(st *story.Story) *story.Story {
	if st.Phases == nil {
		return nil
	}
	if x := l.expanded(st); x.err == nil {
		return x.st
	}
	return nil
}

// storyWrites adds to known the keys st declares and writes; false when
// a written key's name is a {{ }} template or a child did not load.
func storyWrites(src *sources, st *story.Story, known *worldKeys) bool {
	for _, v := range st.World {
		known.names[v.Name] = true
	}
	ok := true
	add := func(key string) { ok = known.add(key) && ok }
	if !storyEffects(src, st, func(p *story.EffectPlace, expanded bool, _ string) {
		known.expanded = expanded
		for _, kv := range slices.Concat(p.Effect.Set, p.Effect.Increment(), p.Effect.Bind()) {
			add(kv.Key)
		}
	}) {
		ok = false // an unparsable overrides: state: its writes are unknown
	}
	known.expanded = false
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		if im.Child == nil {
			ok = false // not loaded here: what it writes is unknown
		}
		for _, kv := range im.WorldIn {
			add(kv.Key)
			add(alias + "__" + kv.Key)
		}
		for _, en := range sortedMapKeys(im.Exits) {
			for _, kv := range im.Exits[en].Set {
				add(kv.Key)
			}
		}
	}
	return ok
}

// storyEffects calls visit with every effect of st: its states (with its
// phases: expanded when they expand, else with its phase templates' states;
// expanded says which), phases:, proposals and its imports' overrides:
// states (over names the import: the fold runs them in the child's
// scope; "" for st's own). It reports false when an overrides: state does
// not parse.
func storyEffects(src *sources, st *story.Story, visit func(p *story.EffectPlace, expanded bool, over string)) bool {
	var w story.EffectWalk
	exp := src.expandedStory(st)
	states := src.storyStates(st)
	over := ""
	each := func(places iter.Seq[*story.EffectPlace]) {
		for p := range places {
			visit(p, exp != nil, over)
		}
	}
	each(w.States(states...))
	each(w.Phases(st.Phases))
	each(w.Proposals(st.Proposals))
	ok := true
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		if im.Overrides == nil {
			continue
		}
		over = alias
		for _, name := range sortedMapKeys(im.Overrides.States) {
			o, _ := im.Overrides.ParseState(name)
			if o == nil {
				ok = false
				continue
			}
			each(w.States(story.Flatten([]*story.State{o})...))
		}
	}
	return ok
}
