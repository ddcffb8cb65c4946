package yamlnode

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// AliasTextPerNode is the bytes of text an alias repeats for each node it
// spends of a Walker's budget beyond its own: an alias costs the text of
// what it names (its scalars' bytes, aliases inside counted as expanded)
// divided by this. Counting nodes alone let a big name, aliased on many
// entries, become output far larger than the file; with this, the node
// budget (MaxNodes) lets aliases repeat about MaxAliasText bytes.
const AliasTextPerNode = 32

// MaxAliasText is the text the aliases of one file may repeat in all
// (AliasTextOver).
const MaxAliasText = MaxNodes * AliasTextPerNode

// maxText saturates TextSizes' sums (aliases inside aliases multiply).
const maxText = 1 << 50

// maxTextDepth bounds the recursion of TextSizes (an alias inside what an
// alias names is a level deeper) and AliasTextOver. It is not maxDepth: a
// reader that takes values nested deeper than a Walker does (an eval
// dataset's args) would let text nested past it go uncounted, so past it
// the text counts as over any limit (maxText).
const maxTextDepth = 1 << 16

// TextSizes memoizes the text of a file's nodes; the zero value is ready.
type TextSizes map[*yaml.Node]int

// Of is the bytes of the scalars of n's subtree, aliases inside expanded,
// computed once per node of the file (a cycle counts nothing more: the
// walks that read it report it).
func (ts *TextSizes) Of(n *yaml.Node) int { return ts.of(n, 0) }

func (ts *TextSizes) of(n *yaml.Node, depth int) int {
	if n == nil {
		return 0
	}
	if depth > maxTextDepth {
		return maxText
	}
	if t, ok := (*ts)[n]; ok {
		return t
	}
	if *ts == nil {
		*ts = TextSizes{}
	}
	(*ts)[n] = 0
	t := len(n.Value)
	for _, c := range n.Content {
		t = min(t+ts.of(Deref(c), depth+1), maxText)
	}
	(*ts)[n] = t
	return t
}

// AliasTextOver is the first alias under n, in document order, at which
// the text the aliases there repeat (each alias the text of what it names)
// passes *left, which it spends; nil when it stays within. Callers that
// read a file's documents one by one share left, so a file's aliases
// repeat at most what it was given.
func AliasTextOver(n *yaml.Node, left *int) *yaml.Node {
	var ts TextSizes
	var over *yaml.Node
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || over != nil {
			return
		}
		if depth > maxTextDepth {
			over = n
			return
		}
		if n.Kind == yaml.AliasNode {
			if *left -= ts.Of(n.Alias); *left < 0 {
				over = n
			}
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return over
}

// AliasTextFileOver is AliasTextOver with the allowance of a file of one
// document (MaxAliasText): the alias past it, or nil.
func AliasTextFileOver(n *yaml.Node) *yaml.Node {
	left := MaxAliasText
	return AliasTextOver(n, &left)
}

// AliasTextMsg is the error for the alias AliasTextOver found in a file,
// which what names ("cassette"); split, when not empty, is a second fix
// ("split the file").
func AliasTextMsg(what, split string) string {
	msg := "the aliases of this " + what + " repeat more than " + strconv.Itoa(MaxAliasText/1_000_000) + " MB of text by here (each use of an alias repeats all of its anchor's text); write a shorter value"
	if split != "" {
		msg += ", or " + split
	}
	return msg
}
