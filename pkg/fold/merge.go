package fold

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// reserved world keys stay bare at every depth (story-format §1.2).
var reserved = map[string]bool{"last_error": true, "host_error": true, "write_mode_scope": true, "session_id": true}

// origin is where a folded state came from.
type origin struct {
	dir, file, alias string
	story            *story.Story
}

type wrapInfo struct {
	source, file, dir string
	story             *story.Story
}

// node is one story of the import tree: a private copy (st) of orig.
type node struct {
	orig  *story.Story
	st    *story.Story
	im    *story.Import // the import that brought it in (nil at the top)
	chain string        // dotted alias chain ("" at the top)
	kids  []*node
}

type folder struct {
	opts     Options
	errs     []Problem
	stateDir map[*story.State]origin
	aliases  map[*story.State]map[string]string
	wrappers map[*story.State]*wrapInfo
	// exitsVia records, per arm or on_complete entry, the exit mappings used.
	exitsVia map[any][]ExitUse
	// imports and copied count the children and states build has copied.
	imports, copied int
	overBudget      bool
	stateCount      map[*story.Story]int
	// overrides bounds the nodes this fold's override parses visit together.
	overrides *story.OverrideBudget
}

func (fs *folder) errf(chain string, p story.Pos, format string, a ...any) {
	fs.errs = append(fs.errs, Problem{Alias: chain, Pos: p, Message: fmt.Sprintf(format, a...)})
}

func joinChain(chain, alias string) string {
	if chain == "" {
		return alias
	}
	return chain + "." + alias
}

// build copies st and, recursively, every imports: child.
func (fs *folder) build(st *story.Story, im *story.Import, chain string, stack []*story.Story) *node {
	n := &node{orig: st, st: copyStory(st), im: im, chain: chain}
	fs.mark(origin{dir: st.Dir, file: st.File, alias: chain, story: st}, n.st.States...)
	if im != nil && st.Phases != nil && fs.opts.Phases == nil {
		fs.errf(chain, st.Phases.Pos, "%s: phases: a phase graph in an imported child is not expanded, so it cannot be folded", st.File)
	}
	for _, alias := range st.ImportOrder {
		ci := st.Imports[alias]
		if ci == nil {
			continue
		}
		sub := joinChain(chain, alias)
		if ci.Child == nil {
			hint := " (see the load errors for it)"
			if strings.HasPrefix(ci.Source, "@kitsoki/") {
				hint = " (set KITSOKI_REPO to a kitsoki checkout holding stories/" + strings.TrimPrefix(ci.Source, "@kitsoki/") + "/app.yaml)"
			}
			fs.errf(sub, ci.Pos, "source %q: the child story was not loaded%s, so it cannot be folded", ci.Source, hint)
			continue
		}
		if slices.Contains(stack, ci.Child) {
			fs.errf(sub, ci.Pos, "source %q: import cycle back to %s", ci.Source, ci.Child.File)
			continue
		}
		if !fs.spend(sub, ci) {
			return n
		}
		n.kids = append(n.kids, fs.build(ci.Child, ci, sub, append(append([]*story.Story(nil), stack...), ci.Child)))
	}
	return n
}

// mark records the origin of states and their subtrees.
func (fs *folder) mark(o origin, states ...*story.State) {
	for _, s := range story.Flatten(states) {
		fs.stateDir[s] = o
	}
}

// fold folds every child of n into n, deepest first.
func (fs *folder) fold(n *node) {
	for _, k := range n.kids {
		fs.fold(k)
		fs.applyOverrides(n, k)
		fs.rebase(n, k)
		fs.merge(n, k)
	}
	if fs.opts.Phases != nil && n.st.Phases != nil {
		if err := fs.opts.Phases(n.st); err != nil {
			fs.errf(n.chain, n.st.Phases.Pos, "%s: phases: %v", n.orig.File, err)
		}
		o := origin{dir: n.orig.Dir, file: n.orig.File, alias: n.chain, story: n.orig}
		for _, s := range n.st.AllStates() {
			if _, ok := fs.stateDir[s]; !ok {
				fs.mark(o, s)
			}
		}
		n.st.Phases = nil // expanded: what is left are plain states
	}
}

// merge folds the (already folded) child k into n under its alias.
func (fs *folder) merge(n, k *node) {
	im, ch, p := k.im, k.st, n.st
	alias := im.Alias
	rw := &rewriter{fs: fs, alias: alias, chain: k.chain, exits: im.Exits,
		world: map[string]bool{}, intents: map[string]bool{}, agents: map[string]bool{}, ifaces: map[string]bool{}}
	for _, w := range ch.World {
		if !reserved[w.Name] {
			rw.world[w.Name] = true
		}
	}
	addKeys(rw.intents, maps.Keys(ch.Intents))
	addKeys(rw.intents, slices.Values(im.ExportIntent))
	addKeys(rw.agents, maps.Keys(ch.Agents))
	addKeys(rw.ifaces, maps.Keys(ch.HostInterfaces))

	entry := cmp.Or(im.Entry, ch.Root)
	if entry == "" {
		fs.errf(k.chain, im.Pos, "entry is required (the child %s declares no root either)", ch.File)
	}

	for _, s := range ch.States {
		rw.state(s, 0)
	}
	w := &story.State{Name: alias, Path: alias, Type: "compound", Initial: entry, InitialPos: im.Pos, Pos: im.Pos,
		Intents: map[string]*story.Intent{}, Keys: map[string]story.Pos{}}
	for _, s := range ch.States {
		s.Parent = w
	}
	for _, s := range story.Flatten(ch.States) {
		s.Path = alias + "." + s.Path
	}
	w.Children = ch.States
	w.OnEnter = fs.entryEffects(ch, im)
	fs.stateDir[w] = origin{dir: n.orig.Dir, file: n.orig.File, alias: n.chain, story: n.orig}
	fs.wrappers[w] = &wrapInfo{source: im.Source, file: k.orig.File, dir: k.orig.Dir, story: k.orig}
	if slices.ContainsFunc(p.States, func(s *story.State) bool { return s.Name == alias }) {
		fs.errf(k.chain, im.Pos, "alias collides with existing parent state of the same name")
	}
	p.States = append(p.States, w)

	fs.mergeWorld(n, k, alias)
	fs.mergeIntents(n, k, alias)
	fs.mergeTables(n, k, alias)
	if im.Hosts != "declared" {
		p.Hosts = appendNew(p.Hosts, ch.Hosts)
	}
	p.Manifests = appendNew(p.Manifests, ch.Manifests)
}

// addKeys sets set[k] for every k of keys.
func addKeys(set map[string]bool, keys iter.Seq[string]) {
	for k := range keys {
		set[k] = true
	}
}

// appendNew appends the elements of add that dst does not hold yet,
// through a set: each parent of a chain of thousands of imports receives
// all its descendants' manifests, which a scan of dst per element made
// cubic in the chain's depth.
func appendNew[T comparable](dst, add []T) []T {
	have := make(map[T]bool, len(dst)+len(add))
	for _, x := range dst {
		have[x] = true
	}
	for _, x := range add {
		if !have[x] {
			have[x] = true
			dst = append(dst, x)
		}
	}
	return dst
}

// entryEffects are the wrapper's on_enter: a set per child world key with a
// non-nil default world_in does not project, then one per world_in key,
// each group in sorted key order.
func (fs *folder) entryEffects(ch *story.Story, im *story.Import) []*story.Effect {
	in := map[string]bool{}
	for _, kv := range im.WorldIn {
		in[kv.Key] = true
	}
	var resets []*story.WorldVar
	for _, v := range ch.World {
		if v.Default != nil && !in[v.Name] && !reserved[v.Name] {
			resets = append(resets, v)
		}
	}
	slices.SortStableFunc(resets, func(a, b *story.WorldVar) int { return strings.Compare(a.Name, b.Name) })
	var out []*story.Effect
	add := func(key string, val any, p story.Pos) {
		e := &story.Effect{Set: []story.KV{{Key: im.Alias + "__" + key, Value: jsonvalue.CopyNilAsEmpty(val), Pos: p}},
			Written: story.EffectKeysOf("set"), Pos: p}
		e.SetKeyPos("set", p)
		out = append(out, e)
	}
	for _, v := range resets {
		add(v.Name, v.Default, v.Pos)
	}
	for _, kv := range slices.SortedStableFunc(slices.Values(im.WorldIn), func(a, b story.KV) int { return strings.Compare(a.Key, b.Key) }) {
		add(kv.Key, kv.Value, kv.Pos)
	}
	return out
}

func (fs *folder) mergeWorld(n, k *node, alias string) {
	p := n.st
	have := map[string]bool{}
	for _, w := range p.World {
		have[w.Name] = true
	}
	for _, w := range k.st.World {
		c := copyWorldVar(w)
		if reserved[w.Name] {
			if have[w.Name] {
				continue
			}
		} else {
			c.Name = alias + "__" + w.Name
		}
		if have[c.Name] {
			fs.errf(k.chain, k.im.Pos, "world key %q collides", c.Name)
			continue
		}
		have[c.Name] = true
		p.World = append(p.World, c)
	}
}

func (fs *folder) mergeIntents(n, k *node, alias string) {
	p, ch, im := n.st, k.st, k.im
	if p.Intents == nil {
		p.Intents = map[string]*story.Intent{}
	}
	add := func(name string, src *story.Intent) {
		if p.Intents[name] != nil {
			fs.errf(k.chain, im.Pos, "intent %q collides", name)
			return
		}
		c := copyIntent(src)
		c.Name = name
		p.Intents[name] = c
		p.IntentOrder = append(p.IntentOrder, name)
	}
	// The parent's own intents as they were before this child, for export.
	parentOwn := maps.Clone(p.Intents)
	for _, name := range orderedKeys(ch.IntentOrder, ch.Intents) {
		add(alias+"__"+name, ch.Intents[name])
	}
	for _, name := range im.ExportIntent {
		src := parentOwn[name]
		if src == nil {
			fs.errf(k.chain, im.Pos, "intents.export references undefined parent intent %q", name)
			continue
		}
		if ch.Intents[name] != nil {
			continue // the child declares it too: its own definition was lifted above
		}
		add(alias+"__"+name, src)
	}
	var exported []string
	if ch.Exports != nil {
		exported = ch.Exports.Intents
	}
	for _, name := range im.ImportIntent {
		switch {
		case !slices.Contains(exported, name):
			fs.errf(k.chain, im.Pos, "intents.import.%s: child does not declare it in exports.intents", name)
		case ch.Intents[name] == nil:
			fs.errf(k.chain, im.Pos, "intents.import.%s: child does not define this intent", name)
		default:
			add(name, ch.Intents[name])
		}
	}
}

// orderedKeys is order (keys of m only) then m's other keys, sorted.
func orderedKeys[V any](order []string, m map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range order {
		if _, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// mergeTables lifts the child's personas, meta modes and host interfaces
// under <alias>__<name> and applies the import's host_bindings.
func (fs *folder) mergeTables(n, k *node, alias string) {
	p, ch, im := n.st, k.st, k.im
	liftTable(fs, k, alias, "agent", &p.Agents, ch.Agents, func(c *story.Persona, nn string) { c.Name = nn })
	liftTable(fs, k, alias, "meta_mode", &p.MetaModes, ch.MetaModes, func(c *story.MetaMode, nk string) {
		c.Key = nk
		if ch.Agents[c.Agent] != nil {
			c.Agent = alias + "__" + c.Agent
		}
	})
	lifted := liftTable(fs, k, alias, "host_interface", &p.HostInterfaces, ch.HostInterfaces, func(c *story.HostInterface, nn string) { c.Name = nn })
	for _, b := range orderedKeys(nil, im.HostBindings) {
		nn := alias + "__" + b
		if !lifted[nn] {
			fs.errf(k.chain, im.Pos, "host_bindings.%s: no matching host_interface (looked for %q in lifted child interfaces)", b, nn)
			continue
		}
		p.HostInterfaces[nn].Default = im.HostBindings[b]
	}
}

// liftTable copies each entry of the child's table src into *dst as
// <alias>__<name> (adopt renames the copy), in key order, reporting a name
// the parent already has; it returns the names lifted.
func liftTable[T any](fs *folder, k *node, alias, what string, dst *map[string]*T, src map[string]*T, adopt func(c *T, name string)) map[string]bool {
	lifted := map[string]bool{}
	for _, name := range orderedKeys(nil, src) {
		if *dst == nil {
			*dst = map[string]*T{}
		}
		nn := alias + "__" + name
		if (*dst)[nn] != nil {
			fs.errf(k.chain, k.im.Pos, "%s %q collides", what, nn)
			continue
		}
		c := cloneExported(src[name])
		adopt(c, nn)
		(*dst)[nn] = c
		lifted[nn] = true
	}
	return lifted
}

// bind applies Options.Bindings to the folded story's host interfaces.
func (fs *folder) bind(st *story.Story, bindings map[string]string) {
	for _, name := range orderedKeys(nil, bindings) {
		hi := st.HostInterfaces[name]
		if hi == nil {
			fs.errf("", story.Pos{File: st.File}, "binding %s: the story has no host_interface %q", name, name)
			continue
		}
		c := cloneExported(hi)
		c.Default = bindings[name]
		st.HostInterfaces[name] = c
	}
}

// copyStory deep-copies what the fold changes of a loaded story.
func copyStory(st *story.Story) *story.Story {
	c := cloneExported(st)
	c.World = mapSlice(st.World, copyWorldVar)
	c.Intents = mapValues(st.Intents, copyIntent)
	c.IntentOrder = slices.Clone(st.IntentOrder)
	c.CheckpointIntents = mapValues(st.CheckpointIntents, copyIntent)
	c.Agents = copyMap(st.Agents)
	c.MetaModes = copyMap(st.MetaModes)
	c.HostInterfaces = copyMap(st.HostInterfaces)
	c.Hosts = slices.Clone(st.Hosts)
	c.Include = slices.Clone(st.Include)
	c.Manifests = slices.Clone(st.Manifests)
	c.Exits = copyMap(st.Exits)
	c.Imports, c.ImportOrder = nil, nil
	c.States = nil
	for _, s := range st.States {
		c.States = append(c.States, copyState(s, nil))
	}
	return c
}

// copyMap copies a table, cloning each entry's exported fields.
func copyMap[T any](m map[string]*T) map[string]*T { return mapValues(m, cloneExported[T]) }
