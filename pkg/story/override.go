package story

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/panicked"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// overrideNodes returns the value node of each key of an import's
// overrides.states or overrides.intents mapping, merge keys applied; the
// mapping is walked first so recursive aliases and depth are reported at
// load. Anything but a mapping is none.
func (p *fileParser) overrideNodes(n *yaml.Node) map[string]*yaml.Node {
	if _, ok := p.Raw(n).(map[string]any); !ok {
		return nil
	}
	out := map[string]*yaml.Node{}
	collectOverrideNodes(yamlnode.Deref(n), out, 0)
	return out
}

func collectOverrideNodes(n *yaml.Node, out map[string]*yaml.Node, depth int) {
	if n == nil || n.Kind != yaml.MappingNode || depth > 200 {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := yamlnode.Deref(n.Content[i])
		if k == nil {
			continue
		}
		if k.Tag != "!!merge" {
			out[k.Value] = n.Content[i+1]
			continue
		}
		merged := map[string]*yaml.Node{}
		collectOverrideNodes(yamlnode.Deref(n.Content[i+1]), merged, depth+1)
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

func sortedNodeKeys(m map[string]*yaml.Node) []string { return slices.Sorted(maps.Keys(m)) }

// ParseState parses overrides.states.<name> as a top-level state of the
// importer's file, with its diagnostics; nil when there is none.
func (o *ImportOverrides) ParseState(name string) (*State, []diag.Diagnostic) {
	return o.ParseStateIn(name, nil)
}

// ParseStateIn is ParseState spending from b (nil: its own budget only).
func (o *ImportOverrides) ParseStateIn(name string, b *OverrideBudget) (*State, []diag.Diagnostic) {
	var s *State
	ds := o.parse(o.States[name], name, b, func(p *fileParser, doc *yaml.Node) {
		states := p.parseStates(doc, nil, "states")
		if len(states) > 0 {
			s = states[0]
		}
		for _, st := range Flatten(states) {
			EachChoice(st, func(el *ViewElement, where string, nth int) {
				if nth > 1 {
					p.Errf(el.Pos, RuleView, "%s", TooManyChoices(where))
				}
			})
		}
	})
	return s, ds
}

// ParseIntentIn parses overrides.intents.<name> as an intent of the
// importer's intents: block, spending from b (nil: its own budget only),
// with that parse's diagnostics; nil when none.
func (o *ImportOverrides) ParseIntentIn(name string, b *OverrideBudget) (*Intent, []diag.Diagnostic) {
	var in *Intent
	ds := o.parse(o.Intents[name], name, b, func(p *fileParser, doc *yaml.Node) {
		intents, _ := p.parseIntents(doc, "intents", nil, false)
		in = intents[name]
	})
	return in, ds
}

// parse runs fn with the importer's parser over {name: v} (nil: nothing)
// and returns its diagnostics; a panic is an internal error diagnostic.
func (o *ImportOverrides) parse(v *yaml.Node, name string, b *OverrideBudget, fn func(p *fileParser, doc *yaml.Node)) (ds []diag.Diagnostic) {
	if v == nil {
		return nil
	}
	rep := &yamlnode.Reporter{}
	p := newFileParser(rep, o.file, o.dir, 0)
	b.lend(p.Walker)
	defer func() {
		b.settle(p.Walker)
		if x := recover(); x != nil {
			rep.Errf(Pos{File: o.file}, RuleInternal, "%s", panicked.Logged(os.Stderr, "parsing an import override", "the parser", x))
			ds = diag.Sort(rep.Diags)
		}
	}()
	fn(p, overrideDoc(name, v))
	return diag.Sort(rep.Diags)
}

// OverrideBudget is the nodes the override parses of one fold may visit
// together: an override is parsed again for each copy of its import, so
// aliases could multiply it. FoldOverrideNodes predicts it for validate.
type OverrideBudget struct {
	left  atomic.Int64
	limit int
}

// NewOverrideBudget is a budget of limit nodes (yamlnode.MaxNodes in
// run, test and validate: fold.Options.OverrideNodesLimit).
func NewOverrideBudget(limit int) *OverrideBudget {
	b := &OverrideBudget{limit: limit}
	b.left.Store(int64(limit))
	return b
}

// lend gives w what is left (a nil budget leaves w's own).
func (b *OverrideBudget) lend(w *yamlnode.Walker) {
	if b == nil {
		return
	}
	w.Budget = int(min(int64(w.Budget), max(b.left.Load(), 0)))
	w.Limit = w.Budget
	w.LimitNote = fmt.Sprintf(" (what is left of the %d nodes the import overrides of this story may parse together, over every copy of their imports)", b.limit)
}

// settle takes what w spent from the budget.
func (b *OverrideBudget) settle(w *yamlnode.Walker) {
	if b != nil {
		b.left.Add(-int64(w.Limit - max(w.Budget, 0)))
	}
}

// overrideDoc is {name: v}, so messages name it as the child's block would.
func overrideDoc(name string, v *yaml.Node) *yaml.Node {
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: v.Line, Column: v.Column}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: slices.Clip([]*yaml.Node{key, v}), Line: v.Line, Column: v.Column}
}
