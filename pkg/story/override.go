package story

import (
	"slices"
	"sort"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// overrideNodes returns the value node of each key of an import's
// overrides.states or overrides.intents mapping, with the keys a value of
// the story would get (a merge key fills the keys not written, a later key
// replaces an earlier one). The mapping is walked as any raw value is
// first, so a recursive alias or a value nested too deep is reported at
// load time, as for the rest of the file; anything but a mapping is none.
func (p *fileParser) overrideNodes(n *yaml.Node) map[string]*yaml.Node {
	if _, ok := p.raw(n).(map[string]any); !ok {
		return nil
	}
	out := map[string]*yaml.Node{}
	collectOverrideNodes(deref(n), out, 0)
	return out
}

func collectOverrideNodes(n *yaml.Node, out map[string]*yaml.Node, depth int) {
	if n == nil || n.Kind != yaml.MappingNode || depth > 200 {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		if k == nil {
			continue
		}
		if k.Tag != "!!merge" {
			out[k.Value] = n.Content[i+1]
			continue
		}
		merged := map[string]*yaml.Node{}
		collectOverrideNodes(deref(n.Content[i+1]), merged, depth+1)
		for mk, mv := range merged {
			if _, written := out[mk]; !written {
				out[mk] = mv
			}
		}
	}
}

// StateNames is the names of the states the import overrides, sorted.
func (o *ImportOverrides) StateNames() []string { return sortedNodeKeys(o.States) }

// IntentNames is the names of the intents the import overrides, sorted.
func (o *ImportOverrides) IntentNames() []string { return sortedNodeKeys(o.Intents) }

func sortedNodeKeys(m map[string]*yaml.Node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseState parses overrides.states.<name> as the top-level state name
// of a story file, from the importer's own YAML nodes, and returns it with
// the diagnostics of that parse (the state's structure and its views'
// choice count; the references it makes are checked once the fold has
// put it in the child's scope). A nil state means there is no such
// override.
func (o *ImportOverrides) ParseState(name string) (s *State, ds []diag.Diagnostic) {
	v := o.States[name]
	if v == nil {
		return nil, nil
	}
	p, rep := o.parser()
	defer rep.recoverInternal(o.file, &ds)
	states := p.parseStates(overrideDoc(name, v), nil, "states")
	if len(states) > 0 {
		s = states[0]
	}
	var walk func(list []*State)
	walk = func(list []*State) {
		for _, st := range list {
			eachChoice(st, func(el *ViewElement, where string, nth int) {
				if nth > 1 {
					reportChoiceCount(rep, el, where)
				}
			})
			walk(st.Children)
		}
	}
	walk(states)
	return s, diag.Sort(rep.ds)
}

// ParseIntent parses overrides.intents.<name> as an intent of the
// importer's intents: block, from its own YAML nodes, and returns it with
// the diagnostics of that parse. A nil intent means there is no such
// override.
func (o *ImportOverrides) ParseIntent(name string) (in *Intent, ds []diag.Diagnostic) {
	v := o.Intents[name]
	if v == nil {
		return nil, nil
	}
	p, rep := o.parser()
	defer rep.recoverInternal(o.file, &ds)
	intents, _ := p.parseIntents(overrideDoc(name, v), "intents")
	return intents[name], diag.Sort(rep.ds)
}

// recoverInternal turns a panic of an override's parse into an internal
// error diagnostic in *ds (a bug to report, never a crash).
func (r *reporter) recoverInternal(file string, ds *[]diag.Diagnostic) {
	if x := recover(); x != nil {
		r.errf(Pos{File: file}, ruleInternal, "internal error while parsing an import override (please report this bug): %v", x)
		*ds = diag.Sort(r.ds)
	}
}

// parser is a parser of the importer's file for one override.
func (o *ImportOverrides) parser() (*fileParser, *reporter) {
	rep := &reporter{}
	b := nodeBudget(0)
	return &fileParser{reporter: rep, file: o.file, dir: o.dir, budget: b, limit: b}, rep
}

// overrideDoc is a one-key mapping {name: v}: the block an override is
// parsed from, so messages name it as the child's own block would
// (states.<name>..., intents.<name>...).
func overrideDoc(name string, v *yaml.Node) *yaml.Node {
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: v.Line, Column: v.Column}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: slices.Clip([]*yaml.Node{key, v}), Line: v.Line, Column: v.Column}
}
