package fold

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

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
	orig   *story.Story
	st     *story.Story
	im     *story.Import // the import that brought it in (nil at the top)
	chain  string        // dotted alias chain ("" at the top)
	kids   []*node
	parent *node
	// pre prefixes its names in the folded story ("a__b__"), at its state
	// paths ("a.b."); both are "" at the top.
	pre, at string
	depth   int
	// first and end number the nodes of its subtree (preorder).
	first, end int
	byAlias    map[string]*node
	// world, agents and ifaces are its own names; intents also holds the
	// exports and imports its merges add (a rewrite's membership tests).
	world, intents, agents, ifaces map[string]bool
	// swap: an import at or above it swaps prompt files (overrides.prompts);
	// swaps are its import's, by absolute child path.
	swap  bool
	swaps map[string]string
	// the problems its merge into its importer reports after the rewrite,
	// world, intent and table steps (in that order, as upstream's fold).
	targetErrs, worldErrs, intentErrs, tableErrs []Problem
	xiErrs                                       []Problem // its exports' and imports' (after intentErrs')
	// wrapper is the state its importer folded it under.
	wrapper *story.State
	// worldOwn and intentOwn are its own entries; added, the intents its
	// importer's merge of it adds (exports, imports).
	worldOwn  []*entry
	intentOwn map[string]*entry
	added     []*entry
}

// errItem is one problem of the fold, or a place for a node's later ones.
type errItem struct {
	p    Problem
	k    *node
	list func(k *node) []Problem
}

type folder struct {
	opts     Options
	errs     []errItem
	stateDir map[*story.State]origin
	aliases  map[*story.State]map[string]string
	wrappers map[*story.State]*wrapInfo
	// scope is the node whose rewrites a state starts from.
	scope map[*story.State]*node
	// finalKeys are effects the fold made with their keys already final.
	finalKeys map[*story.Effect]bool
	// exitsVia records, per arm or on_complete entry, the exit mappings used.
	exitsVia map[any][]ExitUse
	// imports and copied count the children and states build has copied.
	imports, copied int
	overBudget      bool
	stateCount      map[*story.Story]int
	// overrides bounds the nodes this fold's override parses visit together.
	overrides *story.OverrideBudget
	// repeats counts world resets and intent spellings against
	// Options.MaxRepeats.
	repeats  int
	repeated bool
	nodes    int
	// preOverride holds a node's own intents its import's overrides replaced.
	preOverride map[*node]map[string]*story.Intent
}

func (fs *folder) errf(chain string, p story.Pos, format string, a ...any) {
	fs.errs = append(fs.errs, errItem{p: Problem{Alias: chain, Pos: p, Message: fmt.Sprintf(format, a...)}})
}

// later marks the place of k's problems of one step.
func (fs *folder) later(k *node, list func(k *node) []Problem) {
	fs.errs = append(fs.errs, errItem{k: k, list: list})
}

// failed reports whether any problem was recorded.
func (fs *folder) failed() bool {
	for _, e := range fs.errs {
		if e.k == nil || len(e.list(e.k)) > 0 {
			return true
		}
	}
	return false
}

// problems lists every problem in fold order.
func (fs *folder) problems() []Problem {
	var out []Problem
	for _, e := range fs.errs {
		if e.k == nil {
			out = append(out, e.p)
		} else {
			out = append(out, e.list(e.k)...)
		}
	}
	return out
}

func joinChain(chain, alias string) string {
	if chain == "" {
		return alias
	}
	return chain + "." + alias
}

// build copies st and, recursively, every imports: child; stack holds the
// stories being built (st's importers and st).
func (fs *folder) build(st *story.Story, im *story.Import, parent *node, chain string, stack map[*story.Story]bool) *node {
	n := &node{orig: st, st: copyStory(st), im: im, chain: chain, parent: parent, first: fs.nodes}
	fs.nodes++
	if parent != nil {
		n.depth = parent.depth + 1
		n.pre = parent.pre + im.Alias + "__"
		n.at = parent.at + im.Alias + "."
		n.swap = parent.swap || (im.Overrides != nil && len(im.Overrides.Prompts) > 0)
	}
	fs.mark(n, n.st.States...)
	if im != nil && st.Phases != nil && fs.opts.Phases == nil {
		fs.errf(chain, st.Phases.Pos, "%s: phases: a phase graph in an imported child is not expanded, so it cannot be folded", st.File)
	}
	defer func() { n.end = fs.nodes; n.own() }()
	for _, alias := range st.ImportOrder {
		ci := st.Imports[alias]
		if ci == nil {
			continue
		}
		sub := joinChain(chain, alias)
		if ci.Unread {
			// The loader read no more children past the states a fold
			// copies: the fold is past its budget, reported once.
			if !fs.overBudget {
				fs.errf(sub, ci.Pos, "%s", story.FoldStatesMessage(ci.Source))
				fs.overBudget = true
			}
			return n
		}
		if ci.Child == nil {
			hint := " (see the load errors for it)"
			if after, ok := strings.CutPrefix(ci.Source, "@kitsoki/"); ok {
				hint = " (set KITSOKI_REPO to a kitsoki checkout holding stories/" + after + "/app.yaml)"
			}
			fs.errf(sub, ci.Pos, "source %q: the child story was not loaded%s, so it cannot be folded", ci.Source, hint)
			continue
		}
		if stack[ci.Child] {
			fs.errf(sub, ci.Pos, "source %q: import cycle back to %s", ci.Source, ci.Child.File)
			continue
		}
		if !fs.spend(sub, ci) {
			return n
		}
		stack[ci.Child] = true
		n.kids = append(n.kids, fs.build(ci.Child, ci, n, sub, stack))
		delete(stack, ci.Child)
	}
	return n
}

// own fills n's name sets from its own story and its kids' aliases.
func (n *node) own() {
	n.byAlias = map[string]*node{}
	for _, k := range n.kids {
		n.byAlias[k.im.Alias] = k
	}
	n.world = map[string]bool{}
	for _, w := range n.st.World {
		if !story.IsReservedWorld(w.Name) { // bare at every depth
			n.world[w.Name] = true
		}
	}
	n.intents = keySet(n.st.Intents)
	n.agents = keySet(n.st.Agents)
	n.ifaces = keySet(n.st.HostInterfaces)
}

func keySet[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// mark records the origin and scope of states and their subtrees.
func (fs *folder) mark(n *node, states ...*story.State) {
	o := origin{dir: n.orig.Dir, file: n.orig.File, alias: n.chain, story: n.orig}
	for _, s := range story.Flatten(states) {
		fs.stateDir[s] = o
		fs.scope[s] = n
	}
}

// fold folds every child of n into n, deepest first: overrides, wrappers
// and phases here; names, tables and rewrites after the whole tree (lift,
// tables.go, rewrite.go), each state rewritten once.
func (fs *folder) fold(n *node) {
	for _, k := range n.kids {
		fs.fold(k)
		fs.applyOverrides(n, k)
		fs.attach(n, k)
	}
	if fs.opts.Phases != nil && n.st.Phases != nil {
		if err := fs.opts.Phases(n.st); err != nil {
			fs.errf(n.chain, n.st.Phases.Pos, "%s: phases: %v", n.orig.File, err)
		}
		for _, s := range n.st.AllStates() {
			if _, ok := fs.stateDir[s]; !ok {
				fs.mark(n, s)
			}
		}
		n.st.Phases = nil // expanded: what is left are plain states
	}
}

// attach puts the child k under its alias's wrapper state in n.
func (fs *folder) attach(n, k *node) {
	im, ch, p := k.im, k.st, n.st
	alias := im.Alias
	entry := cmp.Or(im.Entry, ch.Root)
	if entry == "" {
		fs.errf(k.chain, im.Pos, "entry is required (the child %s declares no root either)", ch.File)
	}
	fs.later(k, func(k *node) []Problem { return k.targetErrs })
	w := &story.State{Name: alias, Path: alias, Type: "compound", More: &story.StateMore{Initial: entry, InitialPos: im.Pos}, Pos: im.Pos,
		Intents: map[string]*story.Intent{}, Keys: map[string]story.Pos{}}
	for _, s := range ch.States {
		s.Parent = w
	}
	w.Children = ch.States
	fs.stateDir[w] = origin{dir: n.orig.Dir, file: n.orig.File, alias: n.chain, story: n.orig}
	fs.scope[w] = n
	k.wrapper = w
	fs.wrappers[w] = &wrapInfo{source: im.Source, file: k.orig.File, dir: k.orig.Dir, story: k.orig}
	if slices.ContainsFunc(p.States, func(s *story.State) bool { return s.Name == alias }) {
		fs.errf(k.chain, im.Pos, "alias collides with existing parent state of the same name")
	}
	p.States = append(p.States, w)
	fs.later(k, func(k *node) []Problem { return k.worldErrs })
	fs.later(k, func(k *node) []Problem { return k.intentErrs })
	fs.later(k, func(k *node) []Problem { return k.tableErrs })
}

// appendNew appends the elements of add that dst does not hold yet.
func appendNew[T comparable](dst []T, have map[T]bool, add []T) []T {
	for _, x := range add {
		if !have[x] {
			have[x] = true
			dst = append(dst, x)
		}
	}
	return dst
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

// bind applies Options.Bindings to the folded story's host interfaces; a
// name the folded story has no interface of is ignored, as upstream's
// flow rig reloads an app with a fixture's host_bindings.
func (fs *folder) bind(st *story.Story, bindings map[string]string) {
	for _, name := range orderedKeys(nil, bindings) {
		hi := st.HostInterfaces[name]
		if hi == nil {
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
