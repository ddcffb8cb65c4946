package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ystate is one state of a copied story's YAML: its dotted path, its
// mapping node, its parent and children.
type ystate struct {
	path   string
	name   string
	n      *yaml.Node
	parent *ystate
	kids   []*ystate
	root   string // the directory of the story (app.yaml) it belongs to
}

// yarm is one arm of a state's on: list.
type yarm struct {
	st     *ystate
	intent string
	n      *yaml.Node
}

// storyNodes is what the edits draw from: every state, arm, effect
// mapping (arms', on_enter's, on_exit's, nested on_complete's), the world
// declarations and the import definitions.
type storyNodes struct {
	files   []*yfile
	states  []*ystate
	arms    []*yarm
	effects []*yaml.Node
	world   []*yaml.Node // the app.yaml world: mappings
	worldKV map[string]string
	// nonZero names the world keys declared with a non-zero number
	// default: upstream's replay reads such a key as 0 once it is
	// incremented (docs/compat/engine.md, conformance
	// values-increment-default), so an increment added on one differs on
	// purpose and is drawn only with -known.
	nonZero map[string]bool
	imports []*yaml.Node // each import's definition
	exits   []string
	intents []string
	decls   []*yaml.Node // each intent's declaration (app and state intents:)
}

// storyRootOf is the nearest directory above p holding an app.yaml.
func storyRootOf(p string) string {
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "app.yaml")); err == nil || d == filepath.Dir(d) {
			return d
		}
	}
}

func collectNodes(fs []*yfile) *storyNodes {
	sn := &storyNodes{files: fs, worldKV: map[string]string{}, nonZero: map[string]bool{}}
	var walkEffects func(seq *yaml.Node)
	walkEffects = func(seq *yaml.Node) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		for _, e := range seq.Content {
			if e.Kind != yaml.MappingNode {
				continue
			}
			sn.effects = append(sn.effects, e)
			walkEffects(mapGet(e, "on_complete"))
			walkEffects(mapGet(e, "effects"))
		}
	}
	var walk func(f *yfile, states *yaml.Node, parent *ystate, root string)
	walk = func(f *yfile, states *yaml.Node, parent *ystate, root string) {
		if states == nil || states.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(states.Content); i += 2 {
			name, v := states.Content[i].Value, states.Content[i+1]
			if v.Kind != yaml.MappingNode || strings.ContainsAny(name, "{}") {
				continue
			}
			st := &ystate{path: name, name: name, n: v, parent: parent, root: root}
			if parent != nil {
				st.path = parent.path + "." + name
				parent.kids = append(parent.kids, st)
			}
			sn.states = append(sn.states, st)
			sn.addDecls(mapGet(v, "intents"))
			walkEffects(mapGet(v, "on_enter"))
			walkEffects(mapGet(v, "on_exit"))
			on := mapGet(v, "on")
			for j := 0; on != nil && on.Kind == yaml.MappingNode && j+1 < len(on.Content); j += 2 {
				arms := on.Content[j+1]
				if arms.Kind == yaml.MappingNode {
					arms = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{arms}}
				}
				for _, a := range arms.Content {
					if a.Kind == yaml.MappingNode {
						sn.arms = append(sn.arms, &yarm{st, on.Content[j].Value, a})
						walkEffects(mapGet(a, "effects"))
					}
				}
			}
			walk(f, mapGet(v, "states"), st, root)
		}
	}
	for _, f := range fs {
		root := storyRootOf(f.path)
		walk(f, mapGet(f.root, "states"), nil, root)
		if w := mapGet(f.root, "world"); w != nil && w.Kind == yaml.MappingNode {
			sn.world = append(sn.world, w)
			for i := 0; i+1 < len(w.Content); i += 2 {
				sn.worldKV[w.Content[i].Value] = sval(mapGet(w.Content[i+1], "type"))
				sn.nonZero[w.Content[i].Value] = nonZeroNumber(mapGet(w.Content[i+1], "default"))
			}
		}
		if im := mapGet(f.root, "imports"); im != nil && im.Kind == yaml.MappingNode {
			for i := 1; i < len(im.Content); i += 2 {
				sn.imports = append(sn.imports, im.Content[i])
			}
		}
		sn.exits = append(sn.exits, mapKeys(mapGet(f.root, "exits"))...)
		sn.intents = append(sn.intents, mapKeys(mapGet(f.root, "intents"))...)
		sn.addDecls(mapGet(f.root, "intents"))
	}
	return sn
}

// addDecls collects the intent declarations of an intents: mapping,
// turning a null declaration (`go:`) into an empty mapping.
func (sn *storyNodes) addDecls(in *yaml.Node) {
	if in == nil || in.Kind != yaml.MappingNode {
		return
	}
	for i := 1; i < len(in.Content); i += 2 {
		if d := in.Content[i]; d.Kind == yaml.MappingNode {
			sn.decls = append(sn.decls, d)
		} else if d.Kind == yaml.ScalarNode && (d.Tag == "!!null" || d.Value == "") {
			in.Content[i] = node("{}")
			sn.decls = append(sn.decls, in.Content[i])
		}
	}
}

// editStory parses the story copied to d, applies one to four edits and
// writes the changed files back; it returns the edits' descriptions.
func (g *gen) editStory(d string) ([]string, error) {
	fs, err := storyFiles(d)
	if err != nil {
		return nil, err
	}
	sn := collectNodes(fs)
	edits := []func(*storyNodes) string{
		g.editGuard, g.editGuard, g.editSet, g.editSet, g.editIncrement, g.editTarget, g.editTarget,
		g.editLifecycle, g.editSay, g.editTimeout, g.editEmit, g.editWith, g.editView, g.editView, g.editView, g.editView,
		g.editInitial, g.editRegion, g.editImport, g.editTerminal, g.editWorld, g.editSlot, g.editSlot, g.editCall,
	}
	var out []string
	want := 1 + g.rnd.IntN(4)
	for range 40 {
		if len(out) == want {
			break
		}
		if msg := edits[g.rnd.IntN(len(edits))](sn); msg != "" {
			out = append(out, msg)
		}
	}
	return out, saveFiles(fs)
}

// nonZeroNumber reports that n is a YAML number other than zero (one it
// cannot read, such as .inf, counts as non-zero).
func nonZeroNumber(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		return false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	return err != nil || f != 0
}

// incrementable reports that an increment of world key k may be drawn:
// any key with -known, else one whose declared default is no non-zero
// number (see storyNodes.nonZero).
func (g *gen) incrementable(sn *storyNodes, k string) bool {
	return g.withKnown || !sn.nonZero[k]
}

// sval is a scalar node's value, "" for nil.
func sval(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	return n.Value
}

// worldKeys lists the declared world keys in a fixed order.
func (sn *storyNodes) worldKeys() []string {
	var ks []string
	for k := range sn.worldKV {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func (g *gen) worldKey(sn *storyNodes) string {
	ks := sn.worldKeys()
	if len(ks) == 0 || g.chance(8) {
		return "undeclared_key"
	}
	return ks[g.rnd.IntN(len(ks))]
}

// touch marks the story's files changed: an edit does not track which
// file its node lies in, so every file is written back.
func (sn *storyNodes) touch() {
	for _, f := range sn.files {
		f.dirty = true
	}
}

// guardOn draws a guard on the world key k that evaluates without error
// for a value of its declared type (a guard that errs ends the whole run
// upstream: docs/compat/engine.md "Turn-fatal turns").
func (g *gen) guardOn(sn *storyNodes, k string) string {
	switch sn.worldKV[k] {
	case "string":
		return g.pick("world."+k+" == ''", "world."+k+" != 'x'", "len(world."+k+") > 2")
	case "int", "float", "number":
		return g.pick("world."+k+" > 0", "world."+k+" == 0", "world."+k+" <= 1")
	case "bool":
		return g.pick("world."+k, "!world."+k, "world."+k+" == false")
	}
	return g.pick("world."+k+" != nil", "world."+k+" == nil")
}

// sameTypeKey draws a world key declared with k's type (k when none
// other is).
func (g *gen) sameTypeKey(sn *storyNodes, k string) string {
	var ks []string
	for _, o := range sn.worldKeys() {
		if o != k && sn.worldKV[o] == sn.worldKV[k] {
			ks = append(ks, o)
		}
	}
	if len(ks) == 0 {
		return k
	}
	return ks[g.rnd.IntN(len(ks))]
}

var worldRef = regexp.MustCompile(`world\.[A-Za-z_][A-Za-z0-9_]*`)

// editGuard negates, loosens or tightens a guard, points it at another
// world key, or gives an unguarded arm or effect one.
func (g *gen) editGuard(sn *storyNodes) string {
	var whens []*yaml.Node
	var bare []*yaml.Node
	for _, a := range sn.arms {
		if w := mapGet(a.n, "when"); w != nil && w.Kind == yaml.ScalarNode {
			whens = append(whens, w)
		} else {
			bare = append(bare, a.n)
		}
	}
	for _, e := range sn.effects {
		if w := mapGet(e, "when"); w != nil && w.Kind == yaml.ScalarNode {
			whens = append(whens, w)
		}
	}
	if len(whens) == 0 || g.chance(25) {
		if len(bare) == 0 {
			return ""
		}
		a := bare[g.rnd.IntN(len(bare))]
		cond := g.guardOn(sn, g.worldKey(sn))
		mapSet(a, "when", str(cond))
		sn.touch()
		return "guard added: " + cond
	}
	w := whens[g.rnd.IntN(len(whens))]
	x := strings.TrimSpace(w.Value)
	if strings.HasPrefix(x, "{{") {
		return ""
	}
	was := x
	switch g.rnd.IntN(5) {
	case 0:
		x = "!(" + x + ")"
	case 1:
		x = "(" + x + ") || " + g.pick("true", g.guardOn(sn, g.worldKey(sn)))
	case 2:
		x = "(" + x + ") && " + g.pick("false", g.guardOn(sn, g.worldKey(sn)))
	default:
		refs := worldRef.FindAllStringIndex(x, -1)
		if len(refs) == 0 {
			x = "!(" + x + ")"
			break
		}
		r := refs[g.rnd.IntN(len(refs))]
		x = x[:r[0]] + "world." + g.sameTypeKey(sn, strings.TrimPrefix(x[r[0]:r[1]], "world.")) + x[r[1]:]
	}
	if x == was {
		return ""
	}
	w.Value, w.Style, w.Tag = x, yaml.DoubleQuotedStyle, "!!str"
	sn.touch()
	return fmt.Sprintf("guard %q -> %q", was, x)
}

// valueNode draws a set: value of any type, or a template.
func (g *gen) valueNode(sn *storyNodes) *yaml.Node {
	k := g.worldKey(sn)
	switch g.rnd.IntN(12) {
	case 0:
		return node(`"changed"`)
	case 1:
		return node(g.pick("0", "7", "-3", "2.5", "100"))
	case 2:
		return node(g.pick("true", "false"))
	case 3:
		return node("null")
	case 4:
		return node(`["a", 1, true]`)
	case 5:
		return node(`{k: v, n: 2}`)
	case 6:
		return node(`"{{ slots.` + g.pick("name", "value", "id", "url", "choice") + ` }}"`)
	case 7:
		return node(`"{{ world.` + k + ` ?? 'none' }}"`)
	case 8:
		return node(`"{{ world.` + k + ` }}"`)
	case 9:
		return node(`"{{ upper(string(world.` + k + `)) }}"`)
	case 10:
		return node(`"[{{ world.` + k + ` }}] and {{ len(string(world.` + k + `)) }}"`)
	}
	return node(`""`)
}

// editSet changes a set: value's type or makes it a template, or sets
// another key.
func (g *gen) editSet(sn *storyNodes) string {
	var sets []*yaml.Node
	for _, e := range sn.effects {
		if s := mapGet(e, "set"); s != nil && s.Kind == yaml.MappingNode && len(s.Content) > 0 {
			sets = append(sets, s)
		}
	}
	if len(sets) == 0 {
		return ""
	}
	s := sets[g.rnd.IntN(len(sets))]
	i := 2 * g.rnd.IntN(len(s.Content)/2)
	if g.chance(20) {
		k := g.worldKey(sn)
		s.Content = append(s.Content, str(k), g.valueNode(sn))
		sn.touch()
		return "set: added " + k
	}
	v := g.valueNode(sn)
	s.Content[i+1] = v
	sn.touch()
	return fmt.Sprintf("set: %s = %s", s.Content[i].Value, short(v))
}

// short is a value node as one line of YAML, for origin.txt.
func short(n *yaml.Node) string {
	b, err := yaml.Marshal(n)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\n", " "))
}

// editIncrement turns an increment into a set of the same value, or an
// integer set into an increment.
func (g *gen) editIncrement(sn *storyNodes) string {
	var incs, sets []*yaml.Node
	for _, e := range sn.effects {
		for i := 0; i+1 < len(e.Content); i += 2 {
			switch e.Content[i].Value {
			case "increment":
				incs = append(incs, e.Content[i])
			case "set":
				if v := e.Content[i+1]; v.Kind == yaml.MappingNode && len(v.Content) == 2 && v.Content[1].Tag == "!!int" && g.incrementable(sn, v.Content[0].Value) {
					sets = append(sets, e.Content[i])
				}
			}
		}
	}
	switch {
	case len(incs) > 0 && (len(sets) == 0 || g.chance(50)):
		incs[g.rnd.IntN(len(incs))].Value = "set"
		sn.touch()
		return "increment -> set"
	case len(sets) > 0:
		sets[g.rnd.IntN(len(sets))].Value = "increment"
		sn.touch()
		return "set -> increment"
	}
	// an int world key gets an increment on some arm
	var ints []string
	for _, k := range sn.worldKeys() {
		if sn.worldKV[k] == "int" && g.incrementable(sn, k) {
			ints = append(ints, k)
		}
	}
	if len(ints) == 0 || len(sn.arms) == 0 {
		return ""
	}
	a := sn.arms[g.rnd.IntN(len(sn.arms))]
	k := ints[g.rnd.IntN(len(ints))]
	addEffect(a.n, "effects", node(fmt.Sprintf("{increment: {%s: %s}}", k, g.pick("1", "-1", "5"))), g)
	sn.touch()
	return "increment added: " + k
}

// addEffect inserts e into the list key of the mapping n (made if absent)
// at a random place.
func addEffect(n *yaml.Node, key string, e *yaml.Node, g *gen) {
	l := mapGet(n, key)
	if l == nil || l.Kind != yaml.SequenceNode {
		l = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		mapSet(n, key, l)
	}
	at := g.rnd.IntN(len(l.Content) + 1)
	l.Content = slices.Insert(l.Content, at, e)
}

// targetFor draws a target for an arc of st: a sibling, the parent, a
// child, any state by its full path, a parallel region's leaf, an
// @exit:<name>, or the state itself.
func (g *gen) targetFor(sn *storyNodes, st *ystate) string {
	var same []*ystate
	for _, s := range sn.states {
		if s.root == st.root {
			same = append(same, s)
		}
	}
	switch g.rnd.IntN(9) {
	case 0:
		if st.parent != nil && len(st.parent.kids) > 1 {
			return "../" + st.parent.kids[g.rnd.IntN(len(st.parent.kids))].name
		}
	case 1:
		if st.parent != nil {
			return g.pick("..", st.parent.path)
		}
	case 2:
		if len(st.kids) > 0 {
			return st.path + "." + st.kids[g.rnd.IntN(len(st.kids))].name
		}
	case 3:
		if len(sn.exits) > 0 {
			return "@exit:" + sn.exits[g.rnd.IntN(len(sn.exits))]
		}
		return "@exit:" + g.pick("done", "completed")
	case 4:
		var leaves []string
		for _, s := range same {
			if len(s.kids) == 0 && s.parent != nil && s.parent.parent != nil && sval(mapGet(s.parent.parent.n, "type")) == "parallel" {
				leaves = append(leaves, s.path)
			}
		}
		if len(leaves) > 0 {
			return leaves[g.rnd.IntN(len(leaves))]
		}
	case 5:
		return "."
	}
	return same[g.rnd.IntN(len(same))].path
}

// editTarget points an arm's, a timeout's or an on_error's target
// somewhere else.
func (g *gen) editTarget(sn *storyNodes) string {
	type site struct {
		st *ystate
		n  *yaml.Node
	}
	var sites []site
	for _, a := range sn.arms {
		if t := mapGet(a.n, "target"); t != nil && t.Kind == yaml.ScalarNode {
			sites = append(sites, site{a.st, t})
		}
	}
	for _, s := range sn.states {
		if t := mapGet(mapGet(s.n, "timeout"), "target"); t != nil && t.Kind == yaml.ScalarNode {
			sites = append(sites, site{s, t})
		}
	}
	if len(sites) == 0 {
		return ""
	}
	s := sites[g.rnd.IntN(len(sites))]
	was, to := s.n.Value, g.targetFor(sn, s.st)
	if to == was {
		return ""
	}
	s.n.Value, s.n.Tag, s.n.Style = to, "!!str", yaml.DoubleQuotedStyle
	sn.touch()
	return fmt.Sprintf("target %s: %q -> %q", s.st.path, was, s.n.Value)
}

// lifecycleEffect draws an effect for an on_enter list.
func (g *gen) lifecycleEffect(sn *storyNodes) *yaml.Node {
	k := g.worldKey(sn)
	switch g.rnd.IntN(4) {
	case 0:
		return node(`{say: "entered {{ world.` + k + ` }}"}`)
	case 1:
		e := node(`{set: {}}`)
		mapSet(mapGet(e, "set"), k, g.valueNode(sn))
		return e
	case 2:
		return node(fmt.Sprintf(`{when: %q, say: "when-guarded"}`, g.guardOn(sn, k)))
	}
	e := node(`{set: {}}`)
	mapSet(mapGet(e, "set"), "mutated_flag", node("true"))
	return e
}

// editLifecycle adds an on_enter effect, swaps two, or moves one to an
// arm of the state.
func (g *gen) editLifecycle(sn *storyNodes) string {
	if len(sn.states) == 0 {
		return ""
	}
	st := sn.states[g.rnd.IntN(len(sn.states))]
	// on_exit is not in upstream's format (it refuses the story;
	// docs/compat/engine.md): lists move between on_enter and arms
	key := "on_enter"
	l := mapGet(st.n, key)
	switch {
	case l != nil && l.Kind == yaml.SequenceNode && len(l.Content) > 1 && g.chance(50):
		i, j := g.rnd.IntN(len(l.Content)), g.rnd.IntN(len(l.Content))
		l.Content[i], l.Content[j] = l.Content[j], l.Content[i]
		sn.touch()
		return fmt.Sprintf("%s %s: swapped %d and %d", st.path, key, i, j)
	case l != nil && l.Kind == yaml.SequenceNode && len(l.Content) > 0 && g.chance(40):
		var arms []*yarm
		for _, a := range sn.arms {
			if a.st == st {
				arms = append(arms, a)
			}
		}
		if len(arms) == 0 {
			return ""
		}
		a := arms[g.rnd.IntN(len(arms))]
		i := g.rnd.IntN(len(l.Content))
		e := l.Content[i]
		l.Content = slices.Delete(l.Content, i, i+1)
		if len(l.Content) == 0 {
			mapDel(st.n, key)
		}
		addEffect(a.n, "effects", e, g)
		sn.touch()
		return fmt.Sprintf("%s: %s[%d] moved to the arm of %s", st.path, key, i, a.intent)
	}
	addEffect(st.n, key, g.lifecycleEffect(sn), g)
	sn.touch()
	return fmt.Sprintf("%s %s: effect added", st.path, key)
}

// sayText draws narration with templates.
func (g *gen) sayText(sn *storyNodes) string {
	k := g.worldKey(sn)
	return g.pick(
		"Now {{ world."+k+" }}.",
		"slot {{ slots.name }} / {{ slots.value|default:\"none\" }}",
		"{{ world."+k+"|upper }} {{ world.missing_key }}",
		"{% if world."+k+" %}yes{% else %}no{% endif %}",
		"plain mutated narration",
	)
}

// editSay adds a say: effect to an arm, or rewrites one.
func (g *gen) editSay(sn *storyNodes) string {
	var says []*yaml.Node
	for _, e := range sn.effects {
		if s := mapGet(e, "say"); s != nil && s.Kind == yaml.ScalarNode {
			says = append(says, s)
		}
	}
	text := g.sayText(sn)
	if len(says) > 0 && g.chance(40) {
		s := says[g.rnd.IntN(len(says))]
		s.Value, s.Style = s.Value+" "+text, yaml.DoubleQuotedStyle
		sn.touch()
		return "say: appended " + text
	}
	if len(sn.arms) == 0 {
		return ""
	}
	a := sn.arms[g.rnd.IntN(len(sn.arms))]
	e := node(`{say: ""}`)
	mapSet(e, "say", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Style: yaml.DoubleQuotedStyle})
	addEffect(a.n, "effects", e, g)
	sn.touch()
	return fmt.Sprintf("%s on %s: say %q", a.st.path, a.intent, text)
}

// editTimeout adds a timeout to a state (a leaf or a compound) or changes
// one's after.
func (g *gen) editTimeout(sn *storyNodes) string {
	if len(sn.states) == 0 {
		return ""
	}
	st := sn.states[g.rnd.IntN(len(sn.states))]
	after := g.pick("30s", "5m", "1h", "2d", "90s")
	if t := mapGet(st.n, "timeout"); t != nil && t.Kind == yaml.MappingNode && g.chance(60) {
		mapSet(t, "after", str(after))
		sn.touch()
		return fmt.Sprintf("%s timeout after %s", st.path, after)
	}
	t := node("{}")
	mapSet(t, "after", str(after))
	target := g.targetFor(sn, st)
	mapSet(t, "target", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: target, Style: yaml.DoubleQuotedStyle})
	mapSet(st.n, "timeout", t)
	sn.touch()
	return fmt.Sprintf("%s timeout added: %s -> %s", st.path, after, target)
}

// editEmit adds an emit_intent to an arm, naming an intent the arm's
// target handles (the emit is dispatched from there; one it does not
// handle, or the arm's own intent sent back to the same state, ends the
// whole run upstream: turn-fatal, not comparable), or, 30 in 100, an
// emit: of any declared intent (other regions of a parallel state take
// it; elsewhere it is dropped).
func (g *gen) editEmit(sn *storyNodes) string {
	if len(sn.arms) == 0 {
		return ""
	}
	a := sn.arms[g.rnd.IntN(len(sn.arms))]
	if g.chance(30) && len(sn.intents) > 0 {
		name := sn.intents[g.rnd.IntN(len(sn.intents))]
		addEffect(a.n, "effects", node("{emit: "+name+"}"), g)
		sn.touch()
		return fmt.Sprintf("%s on %s: emit %s", a.st.path, a.intent, name)
	}
	to := sn.resolve(a.st, sval(mapGet(a.n, "target")))
	if to == nil || len(to.kids) > 0 {
		return ""
	}
	var names []string
	for s := to; s != nil; s = s.parent {
		names = append(names, mapKeys(mapGet(s.n, "on"))...)
	}
	names = slices.DeleteFunc(names, func(n string) bool {
		return n == "*" || strings.ContainsAny(n, "{") || n == a.intent && to == a.st
	})
	if len(names) == 0 {
		return ""
	}
	name := names[g.rnd.IntN(len(names))]
	e := node("{emit_intent: x}")
	mapSet(e, "emit_intent", str(name))
	if g.chance(30) {
		mapSet(e, "when", str(g.guardOn(sn, g.worldKey(sn))))
	}
	addEffect(a.n, "effects", e, g)
	sn.touch()
	return fmt.Sprintf("%s on %s: emit_intent %s", a.st.path, a.intent, name)
}

// resolve finds the state an arm of st targets when the target is ".",
// a sibling's name, "../name" or a full path; nil otherwise.
func (sn *storyNodes) resolve(st *ystate, t string) *ystate {
	switch {
	case t == ".":
		return st
	case t == "" || strings.ContainsAny(t, "{@"):
		return nil
	}
	t = strings.TrimPrefix(t, "../")
	var sibs []*ystate
	if st.parent != nil {
		sibs = st.parent.kids
	}
	for _, s := range sibs {
		if s.name == t {
			return s
		}
	}
	for _, s := range sn.states {
		if s.root == st.root && s.path == t {
			return s
		}
	}
	return nil
}

// editWith templates a host call's argument or adds one.
func (g *gen) editWith(sn *storyNodes) string {
	var withs []*yaml.Node
	for _, e := range sn.effects {
		if w := mapGet(e, "with"); w != nil && w.Kind == yaml.MappingNode {
			withs = append(withs, w)
		}
	}
	if len(withs) == 0 {
		return ""
	}
	w := withs[g.rnd.IntN(len(withs))]
	k := g.worldKey(sn)
	tmpl := g.pick("{{ world."+k+" }}", "{{ world."+k+" ?? 'x' }}", "pre-{{ world."+k+" }}-post", "{{ slots.name }}", "{{ string(world."+k+") + '!' }}")
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: tmpl, Style: yaml.DoubleQuotedStyle}
	if len(w.Content) > 0 && g.chance(70) {
		i := 2 * g.rnd.IntN(len(w.Content)/2)
		if w.Content[i+1].Kind == yaml.ScalarNode {
			w.Content[i+1] = v
			sn.touch()
			return fmt.Sprintf("with %s = %s", w.Content[i].Value, tmpl)
		}
	}
	mapSet(w, "mutated_arg", v)
	sn.touch()
	return "with mutated_arg = " + tmpl
}

// viewSnippet draws a template fragment: a loop, a filter, a missing key.
func (g *gen) viewSnippet(sn *storyNodes) string {
	k := g.worldKey(sn)
	return g.pick(
		" [{{ world."+k+" }}]",
		" {{ world."+k+"|upper }}",
		" {{ world.no_such_key }}",
		" {{ world."+k+"|default:\"-\" }}",
		" {% for x in world."+k+" %}<{{ x }}>{% endfor %}",
		" {% if world."+k+" %}on{% else %}off{% endif %}",
		" {{ world."+k+"|length }}",
		" {{ slots.name }}",
	)
}

// editView appends a template fragment to a view or prompt string, or to
// a typed view's prose.
func (g *gen) editView(sn *storyNodes) string {
	var texts []*yaml.Node
	var find func(n *yaml.Node, depth int)
	find = func(n *yaml.Node, depth int) {
		if n == nil || depth > 8 {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Tag == "!!str" {
				texts = append(texts, n)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				switch n.Content[i].Value {
				case "prose", "text", "body", "view", "value", "label", "title":
					find(n.Content[i+1], depth+1)
				default:
					if n.Content[i+1].Kind != yaml.ScalarNode {
						find(n.Content[i+1], depth+1)
					}
				}
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				find(c, depth+1)
			}
		}
	}
	for _, s := range sn.states {
		find(mapGet(s.n, "view"), 0)
		if p := mapGet(s.n, "prompt"); p != nil && p.Kind == yaml.ScalarNode {
			texts = append(texts, p)
		}
	}
	for _, a := range sn.arms {
		find(mapGet(a.n, "view"), 0)
	}
	if len(texts) == 0 {
		return ""
	}
	t := texts[g.rnd.IntN(len(texts))]
	if strings.HasSuffix(t.Value, ".pongo") || strings.HasSuffix(t.Value, ".md") || !strings.ContainsAny(t.Value, " {") && len(t.Value) < 20 {
		return "" // a file name or a block name, not a text
	}
	snip := g.viewSnippet(sn)
	t.Value = strings.TrimRight(t.Value, "\n") + snip
	if t.Style == yaml.LiteralStyle || t.Style == yaml.FoldedStyle {
		t.Value += "\n"
	} else {
		t.Style = yaml.DoubleQuotedStyle
	}
	sn.touch()
	return "view +" + snip
}

// editInitial points a compound's initial: at another child.
func (g *gen) editInitial(sn *storyNodes) string {
	var cs []*ystate
	for _, s := range sn.states {
		if mapGet(s.n, "initial") != nil && len(s.kids) > 1 {
			cs = append(cs, s)
		}
	}
	if len(cs) == 0 {
		return ""
	}
	c := cs[g.rnd.IntN(len(cs))]
	k := c.kids[g.rnd.IntN(len(c.kids))].name
	mapSet(c.n, "initial", str(k))
	sn.touch()
	return fmt.Sprintf("%s initial: %s", c.path, k)
}

// editRegion adds a region to a parallel state or removes one.
func (g *gen) editRegion(sn *storyNodes) string {
	var ps []*ystate
	for _, s := range sn.states {
		if sval(mapGet(s.n, "type")) == "parallel" && len(s.kids) > 0 {
			ps = append(ps, s)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	p := ps[g.rnd.IntN(len(ps))]
	states := mapGet(p.n, "states")
	if len(p.kids) > 1 && g.chance(40) {
		k := p.kids[g.rnd.IntN(len(p.kids))].name
		mapDel(states, k)
		sn.touch()
		return fmt.Sprintf("%s: region %s removed", p.path, k)
	}
	r := node(`{type: compound, initial: r1, states: {r1: {view: "extra region r1 {{ world.` + g.worldKey(sn) + ` }}", on: {}}, r2: {view: "extra region r2"}}}`)
	if len(sn.intents) > 0 {
		in := sn.intents[g.rnd.IntN(len(sn.intents))]
		mapSet(mapGet(mapGet(mapGet(r, "states"), "r1"), "on"), in, node(`[{target: ../r2, effects: [{set: {mutated_flag: true}}]}]`))
	}
	mapSet(states, "mutated_region", r)
	sn.touch()
	return p.path + ": region mutated_region added"
}

// editImport changes an import's overrides or world_in.
func (g *gen) editImport(sn *storyNodes) string {
	if len(sn.imports) == 0 {
		return ""
	}
	im := sn.imports[g.rnd.IntN(len(sn.imports))]
	ov := mapGet(mapGet(im, "overrides"), "states")
	switch {
	case ov != nil && len(ov.Content) > 0 && g.chance(40):
		k := ov.Content[0].Value
		mapDel(ov, k)
		if len(ov.Content) == 0 {
			mapDel(mapGet(im, "overrides"), "states")
		}
		sn.touch()
		return "import: override " + k + " removed"
	case ov != nil && len(ov.Content) > 0 && g.chance(50):
		st := ov.Content[1]
		mapSet(st, "view", str("overridden view {{ world."+g.pick("ticket_id", "missing")+" }}"))
		sn.touch()
		return "import: override " + ov.Content[0].Value + " view changed"
	}
	wi := mapGet(im, "world_in")
	if wi == nil || wi.Kind != yaml.MappingNode {
		return ""
	}
	if len(wi.Content) > 0 && g.chance(50) {
		wi.Content[1] = g.valueNode(sn)
		sn.touch()
		return "import: world_in " + wi.Content[0].Value + " changed"
	}
	mapSet(wi, "mutated_in", node(`"{{ world.`+g.worldKey(sn)+` }}"`))
	sn.touch()
	return "import: world_in mutated_in added"
}

// editTerminal toggles terminal: on a state.
func (g *gen) editTerminal(sn *storyNodes) string {
	if len(sn.states) == 0 {
		return ""
	}
	s := sn.states[g.rnd.IntN(len(sn.states))]
	if t := mapGet(s.n, "terminal"); t != nil {
		mapDel(s.n, "terminal")
		sn.touch()
		return s.path + ": terminal removed"
	}
	if len(s.kids) > 0 {
		return ""
	}
	mapSet(s.n, "terminal", node("true"))
	sn.touch()
	return s.path + ": terminal: true"
}

// editWorld changes a world key's default (of its type or not) or its
// type, or declares a new key.
func (g *gen) editWorld(sn *storyNodes) string {
	if len(sn.world) == 0 {
		return ""
	}
	w := sn.world[g.rnd.IntN(len(sn.world))]
	if len(w.Content) == 0 || g.chance(15) {
		mapSet(w, "mutated_flag", node("{type: bool, default: false}"))
		sn.touch()
		return "world: mutated_flag declared"
	}
	i := 2 * g.rnd.IntN(len(w.Content)/2)
	k, decl := w.Content[i].Value, w.Content[i+1]
	if decl.Kind != yaml.MappingNode {
		return ""
	}
	if g.chance(25) {
		t := g.pick("string", "int", "bool", "float", "list", "map", "any")
		mapSet(decl, "type", str(t))
		sn.touch()
		return fmt.Sprintf("world %s: type %s", k, t)
	}
	var v *yaml.Node
	switch typ := sval(mapGet(decl, "type")); {
	case typ == "int" || typ == "integer":
		// a non-zero int default replays increments differently on
		// purpose (docs/compat/engine.md, conformance
		// values-increment-default)
		return ""
	case g.chance(40):
		v = g.valueNode(sn)
	case typ == "bool":
		v = node(g.pick("true", "false"))
	case typ == "string":
		v = node(g.pick(`"seeded"`, `""`, `"x y"`))
	default:
		v = node("null")
	}
	mapSet(decl, "default", v)
	sn.touch()
	return fmt.Sprintf("world %s: default %s", k, short(v))
}
