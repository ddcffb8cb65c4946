package main

import (
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/story"
)

// reservedWorld are the world keys the fold leaves bare.
var reservedWorld = map[string]bool{"last_error": true, "host_error": true, "write_mode_scope": true, "session_id": true}

// renameFixtures rewrites every flow fixture document of the YAML files
// directly in dir (a cassette beside them is left alone) with n's names.
func renameFixtures(dir string, n *wrapNames) error {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil // no flows/: nothing to rename
	}
	renamed := map[string]bool{}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var recs []string
		out, err := rewriteDocs(b, func(doc *yaml.Node) {
			if fx := docMapping(doc); fx != nil && mapGet(fx, "turns") != nil {
				n.fixture(fx)
				if r := mapGet(fx, "recording"); r != nil && r.Kind == yaml.ScalarNode && r.Value != "" {
					recs = append(recs, filepath.Join(dir, r.Value))
				}
			}
		})
		if err != nil {
			continue // a fixture upstream cannot read either: kept as written
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return err
		}
		for _, r := range recs {
			if err := n.recording(r, renamed); err != nil {
				return err
			}
		}
	}
	return nil
}

// recording renames the states and intents of the entries of the
// recording at p (the input: turns' routing answers), once.
func (n *wrapNames) recording(p string, done map[string]bool) error {
	if done[p] {
		return nil
	}
	done[p] = true
	b, err := os.ReadFile(p)
	if err != nil {
		return nil // a missing recording fails on both engines as written
	}
	out, err := rewriteDocs(b, func(doc *yaml.Node) {
		es := mapGet(docMapping(doc), "entries")
		if es == nil || es.Kind != yaml.SequenceNode {
			return
		}
		for _, e := range es.Content {
			if s := mapGet(e, "state"); s != nil && s.Kind == yaml.ScalarNode {
				s.Value = n.state(s.Value)
			}
			n.intent(mapGet(e, "intent"))
		}
	})
	if err != nil {
		return nil
	}
	return os.WriteFile(p, out, 0o644)
}

// docMapping is a document's top mapping, or nil.
func docMapping(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		return doc.Content[0]
	}
	return nil
}

func wrapScalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

// statePre and namePre are the prefixes one wrap level adds per level.
func (n *wrapNames) statePre() string { return strings.Repeat(wrapAlias+".", n.levels) }
func (n *wrapNames) namePre() string  { return strings.Repeat(wrapAlias+"__", n.levels) }

// state renames a state path of the story, or a parallel configuration
// p#p.ra.a1|p.rb.b1 path by path.
func (n *wrapNames) state(p string) string {
	if head, leaves, ok := strings.Cut(p, "#"); ok {
		ls := strings.Split(leaves, "|")
		for i, l := range ls {
			ls[i] = n.state(l)
		}
		return n.state(head) + "#" + strings.Join(ls, "|")
	}
	if strings.HasPrefix(p, "__exit__") {
		return strings.Repeat(wrapAlias+".", n.levels-1) + "done"
	}
	if p == "" || !n.tops[strings.SplitN(p, ".", 2)[0]] {
		return p
	}
	return n.statePre() + p
}

// fixture renames one fixture document's names.
func (n *wrapNames) fixture(fx *yaml.Node) {
	var enter []*yaml.Node
	st := mapGet(fx, "initial_state")
	unset := st == nil || st.Kind == yaml.ScalarNode && st.Value == ""
	if unset && legacyPath(fx) {
		// the legacy path starts at "" (flow-format.md §2.1), where
		// every intent is refused: wrapped, it is the same ""
		n.names(fx)
		return
	}
	atRoot := st == nil || st.Kind != yaml.ScalarNode || st.Value == "" || st.Value == n.root
	if atRoot {
		if st == nil {
			st = wrapScalar("")
			fx.Content = append(fx.Content, wrapScalar("initial_state"), st)
		}
		st.Tag, st.Style = "!!str", 0
	}
	switch {
	case atRoot && n.root != "" && (!unset || n.rootLeaf) && (n.rootEnters || seeded(mapGet(fx, "initial_world")) || countsEvents(fx)):
		// entering an import sets the child's world keys to their
		// defaults, which would undo the seed, runs the on_enter a
		// fixture's start skips, and adds the events of its turns to
		// a session's count: start inside instead, where the start is
		// the root as written (a start left unset lands in a compound
		// root's initial leaf, which a start inside would not)
		st.Value = n.state(n.root)
	case atRoot:
		for l := range n.levels {
			enter = append(enter, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{wrapScalar("intent"),
				{Kind: yaml.MappingNode, Content: []*yaml.Node{wrapScalar("name"), wrapScalar(strings.Repeat(wrapAlias+"__", l) + "enter")}}}})
		}
		st.Value = "home"
	default:
		st.Value = n.state(st.Value)
	}
	n.names(fx)
	turns := mapGet(fx, "turns")
	if turns != nil && turns.Kind == yaml.SequenceNode {
		turns.Content = append(enter, turns.Content...)
	}
}

// names renames a fixture document's world keys, host interfaces and
// turns.
func (n *wrapNames) names(fx *yaml.Node) {
	n.worldKeys(mapGet(fx, "initial_world"))
	n.worldKeys(mapGet(fx, "expect_world_final"))
	if hb := mapGet(fx, "host_bindings"); hb != nil && hb.Kind == yaml.MappingNode {
		for i := 0; i < len(hb.Content); i += 2 {
			if n.ifaces[hb.Content[i].Value] {
				hb.Content[i].Value = n.namePre() + hb.Content[i].Value
			}
		}
	}
	if turns := mapGet(fx, "turns"); turns != nil && turns.Kind == yaml.SequenceNode {
		for _, t := range turns.Content {
			n.turn(t)
		}
	}
}

// legacyPath: upstream runs the fixture document on its legacy path
// (flow-format.md §1.3): use_orchestrator: false, or nothing that selects
// the orchestrator.
func legacyPath(fx *yaml.Node) bool {
	if uo := mapGet(fx, "use_orchestrator"); uo != nil && uo.Kind == yaml.ScalarNode {
		return uo.Value == "false"
	}
	if hh := mapGet(fx, "host_handlers"); hh != nil && len(hh.Content) > 0 {
		return false
	}
	for _, k := range []string{"host_cassette", "starlark_http_cassette"} {
		if v := mapGet(fx, k); v != nil && v.Value != "" {
			return false
		}
	}
	if turns := mapGet(fx, "turns"); turns != nil {
		for _, t := range turns.Content {
			if mapGet(t, "advance_clock") != nil || mapGet(t, "expect_inbox") != nil || mapGet(t, "expect_jobs") != nil {
				return false
			}
		}
	}
	return true
}

// intent renames an intent: {name: x} or x.
func (n *wrapNames) intent(it *yaml.Node) {
	if name := mapGet(it, "name"); name != nil && n.intents[name.Value] {
		name.Value = n.namePre() + name.Value
	} else if it != nil && it.Kind == yaml.ScalarNode && n.intents[it.Value] {
		it.Value = n.namePre() + it.Value
	}
}

// worldKeys renames the story's world keys of a world map.
func (n *wrapNames) worldKeys(w *yaml.Node) {
	if w == nil || w.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i < len(w.Content); i += 2 {
		if k := w.Content[i].Value; n.world[k] && !reservedWorld[k] {
			w.Content[i].Value = n.namePre() + k
		}
	}
}

// turn renames one turn's intent, world and state names.
func (n *wrapNames) turn(t *yaml.Node) {
	if t.Kind != yaml.MappingNode {
		return
	}
	n.intent(mapGet(t, "intent"))
	for _, k := range []string{"world_override", "expect_world", "expect_world_full"} {
		n.worldKeys(mapGet(t, k))
	}
	for _, k := range []string{"expect_state", "expect_not_state"} {
		if v := mapGet(t, k); v != nil && v.Kind == yaml.ScalarNode {
			v.Value = n.state(v.Value)
		}
	}
	if v := mapGet(t, "expect_state_in"); v != nil && v.Kind == yaml.SequenceNode {
		for _, s := range v.Content {
			s.Value = n.state(s.Value)
		}
	}
	if ac := mapGet(mapGet(t, "expect_error"), "allowed_contains"); ac != nil && ac.Kind == yaml.SequenceNode {
		for _, a := range ac.Content {
			n.intent(a)
		}
	}
	// a turn that names its display_input reads it back verbatim
	typed := mapGet(t, "display_input") != nil && mapGet(t, "display_input").Value != ""
	for _, k := range []string{"expect_events", "expect_events_exact"} {
		if v := mapGet(t, k); v != nil && v.Kind == yaml.SequenceNode {
			for _, ev := range v.Content {
				n.event(ev, typed)
			}
		}
	}
}

// event renames one expected event's states and the names its effect
// holds: a transition's intent, a world update's keys, the [intent] X
// input a turn with no display_input shows.
func (n *wrapNames) event(ev *yaml.Node, typed bool) {
	for _, f := range []string{"from", "to"} {
		if s := mapGet(ev, f); s != nil && s.Kind == yaml.ScalarNode {
			s.Value = n.state(s.Value)
		}
	}
	eff := mapGet(ev, "effect")
	n.intent(mapGet(eff, "intent"))
	for _, k := range []string{"set", "increment"} {
		n.worldKeys(mapGet(eff, k))
	}
	if in := mapGet(eff, "input"); in != nil && in.Kind == yaml.ScalarNode && !typed {
		if name, ok := strings.CutPrefix(in.Value, "[intent] "); ok && n.intents[name] {
			in.Value = "[intent] " + n.namePre() + name
		}
	}
}

// entryRuns: entering s runs an on_enter: its own, its initial child's
// (a compound) or a region's (a parallel state).
func entryRuns(s *story.State, depth int) bool {
	if s == nil || depth > 32 {
		return false
	}
	if len(s.OnEnter) > 0 {
		return true
	}
	for _, c := range s.Children {
		if (s.Parallel || c.Name == s.Initial()) && entryRuns(c, depth+1) {
			return true
		}
	}
	return false
}

// countsEvents: the document bounds its session's event count from
// above, or has no turn (only its session checks run).
func countsEvents(fx *yaml.Node) bool {
	turns := mapGet(fx, "turns")
	return mapGet(fx, "expect_events_count_atmost") != nil || turns == nil || len(turns.Content) == 0
}

// seeded: an initial_world that sets some key.
func seeded(w *yaml.Node) bool { return w != nil && w.Kind == yaml.MappingNode && len(w.Content) > 0 }
