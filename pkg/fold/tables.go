package fold

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// MaxRepeats bounds what a deep import tree repeats at every level: a
// wrapper resets every world key below it and a state answers each of its
// intents under one spelling per level above it, so a chain of imports n
// deep repeats its keys and intents about n²/2 times. It is the production
// limit: the one a zero [Options].MaxRepeats folds with.
const MaxRepeats = 1_000_000

// entry is one name of a table (world, intents, agents, meta modes, host
// interfaces) in the folded story: what it is called at the top (final;
// at a level x it is final[len(x.pre):]) and which level dropped it.
type entry struct {
	final string
	n     *node // the node whose own table holds it first
	via   *node // an export or import: the kid whose merge added it
	seq   int
	out   int   // its place in the table's order
	lost  *node // the level whose merge dropped it (a collision), or nil
	val   any
	// def is a host interface's host_bindings default, set at level defAt.
	def   string
	defAt *node
}

// presentAt reports whether e is in the folded table of x (e below x).
func (e *entry) presentAt(x *node) bool { return e.lost == nil || e.lost.depth < x.depth }

// table groups a table's entries by final name in the order the levels'
// merges meet them (own names first, then each kid's, then what the
// kid's merge adds), so a later entry of a name collides where it first
// meets an earlier one: at their nearest common level.
type table struct {
	groups map[string][]*entry
	all    []*entry
}

func newTable() *table { return &table{groups: map[string][]*entry{}} }

// add files e, returning where it collided (nil when it did not) and the
// kid whose merge reported it.
func (t *table) add(e *entry) (at, via *node) {
	e.seq = len(t.all)
	t.all = append(t.all, e)
	g := t.groups[e.final]
	t.groups[e.final] = append(g, e)
	if len(g) == 0 {
		return nil, nil
	}
	p := g[len(g)-1]
	switch {
	case p.n == e.n && e.via == nil: // the same own name twice: its importer meets both
		if e.n.parent == nil {
			return nil, nil
		}
		at, via = e.n.parent, e.n
	default:
		at = lca(p.n, e.n)
		via = e.via
		if at != e.n {
			via = childToward(at, e.n)
		}
	}
	e.lost = at
	return at, via
}

// find is the first entry named final below x present in x's table whose
// seq is under before.
func (t *table) find(final string, x *node, before int) *entry {
	for _, e := range t.groups[final] {
		if e.seq < before && x.first <= e.n.first && e.n.first < x.end && e.presentAt(x) {
			return e
		}
	}
	return nil
}

func lca(a, b *node) *node {
	for a.depth > b.depth {
		a = a.parent
	}
	for b.depth > a.depth {
		b = b.parent
	}
	for a != b {
		a, b = a.parent, b.parent
	}
	return a
}

// childToward is the kid of x on the way down to y (y below x).
func childToward(x, y *node) *node {
	for y.parent != x {
		y = y.parent
	}
	return y
}

// collision is a name dropped at level at, reported in via's merge.
type collision struct {
	e       *entry
	at, via *node
}

func (c collision) problem(what string) Problem {
	return Problem{Alias: c.via.chain, Pos: c.via.im.Pos, Message: fmt.Sprintf("%s %q collides", what, c.e.final[len(c.at.pre):])}
}

// report appends each collision's problem to its merge's list, in the
// order that merge met them.
func report(cs []collision, what string, order func(a, b *entry) int, list func(k *node) *[]Problem) {
	slices.SortStableFunc(cs, func(a, b collision) int { return order(a.e, b.e) })
	for _, c := range cs {
		l := list(c.via)
		*l = append(*l, c.problem(what))
	}
}

// tables lifts every child's world keys, intents, personas, meta modes and
// host interfaces into the top story under their final names, reports
// collisions in the merge that met them, and writes each wrapper's on_enter.
func (fs *folder) tables(root *node) {
	fs.world(root)
	fs.intentTable(root)
	var tcs []collision
	agents := liftNames(root, func(n *node) map[string]*story.Persona { return n.st.Agents }, &tcs)
	report(tcs, "agent", byFinal, tableErrs)
	tcs = nil
	metas := liftNames(root, func(n *node) map[string]*story.MetaMode { return n.st.MetaModes }, &tcs)
	report(tcs, "meta_mode", byFinal, tableErrs)
	tcs = nil
	ifaces := liftNames(root, func(n *node) map[string]*story.HostInterface { return n.st.HostInterfaces }, &tcs)
	report(tcs, "host_interface", byFinal, tableErrs)
	fs.hostBindings(root, ifaces)

	top := root.st
	for _, e := range agents.all {
		if e.n != root && e.lost == nil {
			c := cloneExported(e.val.(*story.Persona))
			c.Name = e.final
			setIn(&top.Agents, e.final, c)
		}
	}
	for _, e := range metas.all {
		if e.n != root && e.lost == nil {
			c := cloneExported(e.val.(*story.MetaMode))
			c.Key = e.final
			c.Agent = lift(e.n, c.Agent, hasAgent)
			setIn(&top.MetaModes, e.final, c)
		}
	}
	for _, e := range ifaces.all {
		if e.n != root && e.lost == nil {
			c := cloneExported(e.val.(*story.HostInterface))
			c.Name = e.final
			if e.defAt != nil {
				c.Default = e.def
			}
			setIn(&top.HostInterfaces, e.final, c)
		}
	}
	hosts, manifests := map[string]bool{}, map[string]bool{}
	top.Hosts = appendNew(nil, hosts, top.Hosts)
	top.Manifests = appendNew(nil, manifests, top.Manifests)
	var walk func(n *node, withHosts bool)
	walk = func(n *node, withHosts bool) {
		for _, k := range n.kids {
			h := withHosts && k.im.Hosts != "declared"
			if h {
				top.Hosts = appendNew(top.Hosts, hosts, k.st.Hosts)
			}
			top.Manifests = appendNew(top.Manifests, manifests, k.st.Manifests)
			walk(k, h)
		}
	}
	walk(root, true)
}

func byFinal(a, b *entry) int { return strings.Compare(a.final, b.final) }
func bySeq(a, b *entry) int   { return cmp.Compare(a.seq, b.seq) }
func byOut(a, b *entry) int   { return cmp.Compare(a.out, b.out) }

func tableErrs(k *node) *[]Problem { return &k.tableErrs }

func setIn[T any](m *map[string]*T, k string, v *T) {
	if *m == nil {
		*m = map[string]*T{}
	}
	(*m)[k] = v
}

// liftNames files every node's own entries of a table, own names first.
func liftNames[T any](root *node, of func(n *node) map[string]*T, cs *[]collision) *table {
	t := newTable()
	var walk func(n *node)
	walk = func(n *node) {
		for _, name := range slices.Sorted(maps.Keys(of(n))) {
			e := &entry{final: n.pre + name, n: n, val: of(n)[name]}
			if at, via := t.add(e); at != nil {
				*cs = append(*cs, collision{e, at, via})
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(root)
	return t
}

// hostBindings applies each import's host_bindings to the interface its
// merge lifted, the highest level's last.
func (fs *folder) hostBindings(root *node, ifaces *table) {
	var walk func(n *node)
	walk = func(n *node) {
		for _, k := range n.kids {
			walk(k)
			for _, b := range orderedKeys(nil, k.im.HostBindings) {
				e := ifaces.find(k.pre+b, k, len(ifaces.all))
				if e == nil || !e.presentAt(n) {
					k.tableErrs = append(k.tableErrs, Problem{Alias: k.chain, Pos: k.im.Pos,
						Message: fmt.Sprintf("host_bindings.%s: no matching host_interface (looked for %q in lifted child interfaces)", b, k.im.Alias+"__"+b)})
					continue
				}
				e.def, e.defAt = k.im.HostBindings[b], n
			}
		}
	}
	walk(root)
}

// world lifts the world keys (reserved ones stay bare, the first kept),
// reports collisions and writes each wrapper's resets.
func (fs *folder) world(root *node) {
	t := newTable()
	var cs []collision
	var bare []*entry
	var walk func(n *node)
	walk = func(n *node) {
		for _, w := range n.st.World {
			if story.IsReservedWorld(w.Name) {
				bare = append(bare, &entry{final: w.Name, n: n, val: w, seq: len(t.all)})
				continue
			}
			e := &entry{final: n.pre + w.Name, n: n, val: w}
			n.worldOwn = append(n.worldOwn, e)
			if at, via := t.add(e); at != nil {
				cs = append(cs, collision{e, at, via})
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(root)
	report(cs, "world key", bySeq, func(k *node) *[]Problem { return &k.worldErrs })

	fs.topWorld(root, t, bare)
	// Ranks of the final names order each wrapper's resets.
	sorted := slices.SortedFunc(slices.Values(t.all), byFinal)
	rank := make(map[*entry]int, len(sorted))
	for i, e := range sorted {
		rank[e] = i
	}
	var resets func(n *node) []*entry
	resets = func(n *node) []*entry {
		var list []*entry
		for _, e := range n.worldOwn {
			if e.val.(*story.WorldVar).Default != nil {
				list = append(list, e)
			}
		}
		for _, k := range n.kids {
			below := resets(k)
			fs.wrapperEntry(k, below)
			for _, e := range below {
				if e.presentAt(n) {
					list = append(list, e)
				}
			}
		}
		slices.SortFunc(list, func(a, b *entry) int { return cmp.Compare(rank[a], rank[b]) })
		return list
	}
	resets(root)
}

// topWorld lists the top's world keys: its own, then every kept key in
// walk order (a reserved one where it first appears).
func (fs *folder) topWorld(root *node, t *table, bare []*entry) {
	top := root.st
	have := map[string]bool{}
	for _, w := range top.World {
		have[w.Name] = true
	}
	i := 0
	for _, e := range t.all {
		for ; i < len(bare) && bare[i].seq <= e.seq; i++ {
			fs.addBare(top, have, bare[i], root)
		}
		if e.n != root && e.lost == nil && !have[e.final] {
			have[e.final] = true
			c := copyWorldVar(e.val.(*story.WorldVar))
			c.Name = e.final
			top.World = append(top.World, c)
		}
	}
	for ; i < len(bare); i++ {
		fs.addBare(top, have, bare[i], root)
	}

}

func (fs *folder) addBare(top *story.Story, have map[string]bool, e *entry, root *node) {
	if e.n == root || have[e.final] {
		return
	}
	have[e.final] = true
	top.World = append(top.World, copyWorldVar(e.val.(*story.WorldVar)))
}

// wrapperEntry writes the on_enter of k's wrapper: a set per world key
// of k's table with a default that world_in does not project, then one
// per world_in key, each group in sorted key order.
func (fs *folder) wrapperEntry(k *node, below []*entry) {
	w := k.wrapper
	in := map[string]bool{}
	for _, kv := range k.im.WorldIn {
		in[kv.Key] = true
	}
	var out []*story.Effect
	add := func(key string, val any, p story.Pos) *story.Effect {
		e := &story.Effect{Set: []story.KV{{Key: key, Value: jsonvalue.CopyNilAsEmpty(val), Pos: p}},
			Written: story.EffectKeysOf("set"), Pos: p}
		e.SetKeyPos("set", p)
		out = append(out, e)
		return e
	}
	for _, e := range below {
		if in[e.final[len(k.pre):]] {
			continue
		}
		if !fs.repeat(k, 1) {
			break
		}
		v := e.val.(*story.WorldVar)
		fs.finalKeys[add(e.final, v.Default, v.Pos)] = true
	}
	for _, kv := range slices.SortedStableFunc(slices.Values(k.im.WorldIn), func(a, b story.KV) int { return strings.Compare(a.Key, b.Key) }) {
		add(k.im.Alias+"__"+kv.Key, kv.Value, kv.Pos)
	}
	w.OnEnter = out
}

// repeat charges n repeats to the fold's budget; past its limit it
// reports once, at k's import, and returns false.
func (fs *folder) repeat(k *node, n int) bool {
	if fs.repeated {
		return false
	}
	fs.repeats += n
	limit := fs.opts.RepeatLimit()
	if fs.repeats <= limit {
		return true
	}
	fs.repeated = true
	fs.errs = append(fs.errs, errItem{p: Problem{Alias: k.chain, Pos: k.im.Pos, OverRepeats: true,
		Message: fmt.Sprintf("source %q: the import tree repeats more than %d world resets and intent spellings (a wrapper resets every world key imported below it, and a state answers each intent under one spelling per import level above it, so a chain n imports deep repeats its keys and intents about n²/2 times); import fewer levels deep, or declare world keys and intents in fewer of the deeply imported stories", k.im.Source, limit)}})
	return false
}

// intentTable lifts the intents: each child's under <alias>__, then the
// parent's intents an import exports to it, then the child's intents it
// imports bare; collisions and mistakes are reported in the merge's order.
func (fs *folder) intentTable(root *node) {
	t := newTable()
	var cs []collision
	var walk func(n *node)
	walk = func(n *node) {
		n.intentOwn = map[string]*entry{}
		for _, name := range slices.Sorted(maps.Keys(n.st.Intents)) {
			e := &entry{final: n.pre + name, n: n, val: n.st.Intents[name]}
			n.intentOwn[name] = e
			if at, via := t.add(e); at != nil {
				cs = append(cs, collision{e, at, via})
			}
		}
		for _, k := range n.kids {
			start := len(t.all)
			walk(k)
			fs.importIntents(t, n, k, start, &cs)
		}
	}
	walk(root)
	i := 0
	adds(root, func(e *entry) { e.out = i; i++ })
	report(cs, "intent", byOut, func(k *node) *[]Problem { return &k.intentErrs })
	fs.eachNode(root, func(k *node) { k.intentErrs = append(k.intentErrs, k.xiErrs...) })

	top := root.st
	adds(root, func(e *entry) {
		if e.lost == nil {
			top.IntentOrder = append(top.IntentOrder, e.final)
		}
	})
	for _, e := range t.all {
		if (e.n != root || e.via != nil) && e.lost == nil {
			c := copyIntent(e.val.(*story.Intent))
			c.Name = e.final
			setIn(&top.Intents, e.final, c)
		}
	}
}

// importIntents adds to n, after k's intents, the intents k's import
// exports and imports (upstream's intents.export and intents.import).
func (fs *folder) importIntents(t *table, n, k *node, start int, cs *[]collision) {
	im := k.im
	bad := func(format string, a ...any) {
		k.xiErrs = append(k.xiErrs, Problem{Alias: k.chain, Pos: im.Pos, Message: fmt.Sprintf(format, a...)})
	}
	add := func(rel string, val any) {
		e := &entry{final: n.pre + rel, n: n, via: k, val: val}
		n.intents[rel] = true
		k.added = append(k.added, e)
		switch at, via := t.add(e); {
		case at == n:
			bad("intent %q collides", rel)
		case at != nil:
			*cs = append(*cs, collision{e, at, via})
		}
	}
	for _, name := range im.ExportIntent {
		src := t.find(n.pre+name, n, start)
		if src == nil {
			bad("intents.export references undefined parent intent %q", name)
			continue
		}
		if t.find(k.pre+name, k, len(t.all)) != nil {
			continue // the child declares it too: its own definition was lifted
		}
		val := src.val
		if p := fs.preOverride[n][name]; p != nil && src.n == n && src.via == nil {
			val = p // n's own overrides are applied after its kids' merges
		}
		add(im.Alias+"__"+name, val)
	}
	var exported []string
	if k.st.Exports != nil {
		exported = k.st.Exports.Intents
	}
	for _, name := range im.ImportIntent {
		if !slices.Contains(exported, name) {
			bad("intents.import.%s: child does not declare it in exports.intents", name)
			continue
		}
		src := t.find(k.pre+name, k, len(t.all))
		if src == nil {
			bad("intents.import.%s: child does not define this intent", name)
			continue
		}
		add(name, src.val)
	}
}

// adds emits, in order, the intents n's merges add: each kid's table in
// its intent order, then what its import exports and imports.
func adds(n *node, emit func(e *entry)) {
	for _, k := range n.kids {
		block(k, emit)
		for _, e := range k.added {
			emit(e)
		}
	}
}

// block emits k's folded intents in the order its importer lifts them:
// its own intent order, its merges' additions, then its other own
// intents sorted.
func block(k *node, emit func(e *entry)) {
	seen := map[string]bool{}
	for _, name := range k.st.IntentOrder {
		if e := k.intentOwn[name]; e != nil && !seen[name] {
			seen[name] = true
			emit(e)
		}
	}
	adds(k, emit)
	for _, name := range slices.Sorted(maps.Keys(k.intentOwn)) {
		if !seen[name] {
			emit(k.intentOwn[name])
		}
	}
}

// eachNode calls f for every node below n, depth first.
func (fs *folder) eachNode(n *node, f func(k *node)) {
	for _, k := range n.kids {
		fs.eachNode(k, f)
		f(k)
	}
}
