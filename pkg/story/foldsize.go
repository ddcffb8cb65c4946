package story

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// Bounds on what folding a story's imports copies (pkg/fold): a child is
// copied once per import, so a tree of few small files can multiply. Both
// the fold and kitsoki validate refuse a tree past these.
const (
	// MaxFoldImports is the most imports a fold copies, each import counted.
	MaxFoldImports = 10_000
	// MaxFoldImportedStates is the most imported states a fold copies.
	MaxFoldImportedStates = 250_000
)

// FoldSize is what folding the import im copies: the imports in its
// subtree and the states of their children, once per import, counting no
// further past the limits; a cycle's back edge counts as nothing, an
// import the loader left unread (Import.Unread) as past the states limit. sizes
// memoizes per child: pass the same map for every import of one story.
func FoldSize(im *Import, sizes map[*Story][2]int) (imports, states int) {
	if im != nil && im.Unread {
		return 1, MaxFoldImportedStates + 1
	}
	if im == nil || im.Child == nil {
		return 0, 0
	}
	sub := foldSizeOf(im.Child, sizes)
	return sat(1 + sub[0]), sat(len(Flatten(im.Child.States)) + sub[1])
}

// foldSizeOf is the imports and states folding st's own imports copies.
func foldSizeOf(st *Story, sizes map[*Story][2]int) [2]int {
	if s, ok := sizes[st]; ok {
		return s
	}
	sizes[st] = [2]int{} // in progress: a cycle back here adds nothing
	var out [2]int
	for _, alias := range st.ImportOrder {
		i, s := FoldSize(st.Imports[alias], sizes)
		out = [2]int{sat(out[0] + i), sat(out[1] + s)}
	}
	sizes[st] = out
	return out
}

// sat caps a count just past the larger limit, so sums never overflow.
func sat(n int) int { return min(n, MaxFoldImportedStates+1) }

// FoldImportsMessage is the error for an import tree past MaxFoldImports.
func FoldImportsMessage(source string) string {
	return fmt.Sprintf("source %q: the import tree folds more than %d imports (a child is copied each time it is imported, so one imported by several stories or aliases multiplies at every level); import each child from fewer places", source, MaxFoldImports)
}

// FoldStatesMessage is the error for an import tree past MaxFoldImportedStates.
func FoldStatesMessage(source string) string {
	return FoldStatesMessageOver(source, MaxFoldImportedStates)
}

// FoldStatesMessageOver is the error for an import tree past limit
// imported states (a fold's own limit: fold.Options.MaxImportedStates).
func FoldStatesMessageOver(source string, limit int) string {
	return fmt.Sprintf("source %q: the import tree folds more than %d states from imported children (each child's states are copied each time it is imported); import large children from fewer places", source, limit)
}

// FoldOverrideNodes is the YAML nodes of overrides that folding im parses
// (its own and its child subtree's, once per copy), stopping past
// yamlnode.MaxNodes. nodes memoizes per child: pass one map per story.
func FoldOverrideNodes(im *Import, nodes map[*Story]int) int {
	if im == nil {
		return 0
	}
	n := im.Overrides.weight()
	if im.Child != nil {
		n += foldOverridesOf(im.Child, nodes)
	}
	return min(n, yamlnode.MaxNodes+1)
}

func foldOverridesOf(st *Story, nodes map[*Story]int) int {
	if n, ok := nodes[st]; ok {
		return n
	}
	nodes[st] = 0 // in progress: a cycle back here adds nothing
	n := 0
	for _, alias := range st.ImportOrder {
		n = min(n+FoldOverrideNodes(st.Imports[alias], nodes), yamlnode.MaxNodes+1)
	}
	nodes[st] = n
	return n
}

// FoldOverridesMessage is the error for overrides past yamlnode.MaxNodes.
func FoldOverridesMessage(source string) string {
	return fmt.Sprintf("source %q: the import tree parses more than %d YAML nodes of import overrides (an override is parsed again for each copy of its import, and aliases expand it); import the child that carries large overrides from fewer places, or write the overrides out smaller", source, yamlnode.MaxNodes)
}

// weight is the nodes of o's states and intents (at most yamlnode.MaxNodes+1).
func (o *ImportOverrides) weight() int {
	if o == nil {
		return 0
	}
	left := yamlnode.MaxNodes + 1
	for _, m := range []map[string]*yaml.Node{o.States, o.Intents} {
		for _, n := range m {
			countNodes(n, &left, 0)
		}
	}
	return yamlnode.MaxNodes + 1 - left
}

// countNodes takes the nodes under n from *left until out or too deep.
func countNodes(n *yaml.Node, left *int, depth int) {
	if n == nil || *left <= 0 || depth > 200 {
		return
	}
	if n.Kind == yaml.AliasNode {
		countNodes(n.Alias, left, depth+1)
		return
	}
	*left--
	for _, c := range n.Content {
		countNodes(c, left, depth+1)
	}
}
