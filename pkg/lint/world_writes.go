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
	return k.names[key] || k.matchesPattern(key)
}

// matchesPattern reports whether key matches a key a phase template
// writes under a placeholder.
func (k *worldKeys) matchesPattern(key string) bool {
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

// foldedWorld is the world keys of an import tree as the fold names them
// (foldScope): a child's declared k is <alias>__k, its undeclared k the
// importer's. A read is given a value only when its folded key is here.
type foldedWorld struct {
	keys   map[string]bool
	scopes map[*story.Story][]*foldScope
	// partial: the tree passes story.MaxFoldImports, its scopes are not
	// all listed, and keys are not matched by their folded name
	partial bool
}

// treeFolded is the foldedWorld of the import tree st belongs to: the
// injected keys, each scope's declared keys, and the keys its effects
// (an overrides: state's in the child's scope), world_in: (the child's
// <alias>__k) and exits' set: (the importer's, as the existing engine
// writes them: testdata/world-key/fold-nil) write. A key whose name holds
// a placeholder or a {{ }} template is left out (worldKeys has it).
func treeFolded(src *sources, st *story.Story) *foldedWorld {
	top := st
	for top.Importer() != nil {
		top = top.Importer()
	}
	scopes, complete := foldScopes(top)
	fw := &foldedWorld{keys: map[string]bool{}, scopes: scopes, partial: !complete}
	for _, k := range story.InjectedWorld() {
		fw.keys[k] = true
	}
	write := func(sc *foldScope, key string) {
		if k := worldKeyOf(key); k != "" {
			fw.keys[sc.key(k)] = true
		}
	}
	for _, s := range append([]*story.Story{top}, top.Children()...) {
		for _, sc := range scopes[s] {
			for _, v := range s.World {
				fw.keys[sc.prefix+v.Name] = true
			}
		}
		storyEffects(src, s, func(p *story.EffectPlace, _ bool, over string) {
			for _, sc := range scopes[s] {
				if over != "" { // an overrides: state runs in the child's scope
					if sc = sc.child(over, scopes); sc == nil {
						continue
					}
				}
				for _, kv := range slices.Concat(p.Effect.Set, p.Effect.Increment(), p.Effect.Bind()) {
					write(sc, kv.Key)
				}
			}
		})
		for _, alias := range s.ImportOrder {
			im := s.Imports[alias]
			for _, sc := range scopes[s] {
				for _, kv := range im.WorldIn {
					write(sc, alias+"__"+kv.Key)
				}
				for _, en := range sortedMapKeys(im.Exits) {
					for _, kv := range im.Exits[en].Set {
						write(sc, kv.Key)
					}
				}
			}
		}
	}
	return fw
}
