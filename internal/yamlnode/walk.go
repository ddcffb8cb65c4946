package yamlnode

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// MaxNodes is the floor of the node budget of one file (NodeBudget).
const MaxNodes = 2_000_000

// NodeBudget bounds the nodes walked for a file of size bytes: MaxNodes
// plus one a byte, which only alias expansion ("billion laughs") exceeds.
func NodeBudget(size int) int { return MaxNodes + size }

// maxDepth is how deeply collections may nest on the walk path.
const maxDepth = 200

// Rules are the rules a Walker reports its findings under.
type Rules struct {
	Syntax    *diag.Rule // node budget, recursion, depth
	Type      *diag.Rule // a value of the wrong YAML type
	Duplicate *diag.Rule // a repeated mapping key
	Unknown   *diag.Rule // a key the caller does not know
	// NumberText, when set, warns at a value Raw reads as text (PointlessFloat).
	NumberText *diag.Rule
}

// Walker reads the YAML nodes of one file: every finding is a positioned
// diagnostic appended to *Out, and a problem never stops the walk (a wrong
// value reads as its zero). Set File, Out, Rules and a budget (NewWalker).
type Walker struct {
	File  string
	Out   *[]diag.Diagnostic
	Rules *Rules
	// Budget is the nodes left to visit; Limit the budget it started with.
	Budget, Limit int
	// LimitNote, when set, follows the limit in the budget's message.
	LimitNote string
	// Interning keeps one copy of repeated short strings (set for large files).
	Interning bool
	// Typed reads values as the existing engine's typed decoder does: a bool
	// is only unquoted true or false (any case), a list is a sequence.
	Typed bool

	// exhausted is set once the budget ran out and was reported.
	exhausted bool
	// active holds the collections being walked, to catch recursive aliases.
	active []*yaml.Node
	strs   *[internSlots]string
	// texts memoizes the text aliases repeat (alias_text.go).
	texts TextSizes
}

// internMinBytes is the file size from which NewWalker interns strings.
const internMinBytes = 256 << 10

// NewWalker is a Walker of file with the budget NodeBudget(size).
func NewWalker(file string, size int, out *[]diag.Diagnostic, rules *Rules) *Walker {
	b := NodeBudget(size)
	return &Walker{File: file, Out: out, Rules: rules, Budget: b, Limit: b, Interning: size >= internMinBytes}
}

// Report appends a diagnostic at pos under rule to *w.Out (Append).
func (w *Walker) Report(pos Pos, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	appendDiag(w.Out, pos, sev, rule, format, a...)
}

// ReportAt is Report for a message that starts with the block at names:
// a state's (`state "a"`) is kept on the finding as its place.
func (w *Walker) ReportAt(pos Pos, at Place, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	w.Report(pos, sev, rule, format, a...)
	placeLast(*w.Out, at.named())
}

// appendDiag appends a diagnostic at pos under rule to *out, its message cut
// at its first line break.
func appendDiag(out *[]diag.Diagnostic, pos Pos, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	*out = append(*out, diag.Diagnostic{File: pos.File, Line: pos.Line, Col: pos.Col,
		Severity: sev, Rule: rule.ID, Message: msg, Format: format})
}

// Pos is the position of n in the walker's file.
func (w *Walker) Pos(n *yaml.Node) Pos { return posAt(w.File, n) }

// ValuePos is the position of a scalar's first content character.
func (w *Walker) ValuePos(n *yaml.Node) Pos {
	pos := w.Pos(n)
	if d := Deref(n); d != nil && d.Kind == yaml.ScalarNode && (d.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle)) != 0 && d == n {
		pos.Col++
	}
	return pos
}

// internSlots is the size of the string cache of a file's walk.
const internSlots = 4096

// Intern returns an earlier string equal to s when the fixed cache holds
// one, so the model keeps one copy of repeated names; only with Interning.
func (w *Walker) Intern(s string) string {
	if !w.Interning || len(s) == 0 || len(s) > 128 {
		return s
	}
	if w.strs == nil {
		w.strs = new([internSlots]string)
	}
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	slot := &w.strs[h%internSlots]
	if *slot == s {
		return *slot
	}
	*slot = s
	return s
}

// Enter marks n as being walked, reporting (at orig) and returning false
// for a recursive alias or a path too deep; pair a true return with
// Leave(n). The path is short, so a scan beats a map.
func (w *Walker) Enter(n, orig *yaml.Node, at Place) bool {
	if slices.Contains(w.active, n) || len(w.active) > maxDepth {
		w.ReportAt(w.Pos(orig), at, diag.Error, w.Rules.Syntax, "%s: recursive or too deeply nested YAML (an alias refers to its own ancestor)", at.String())
		return false
	}
	w.push(n)
	return true
}

func (w *Walker) push(n *yaml.Node) {
	if w.active == nil {
		w.active = make([]*yaml.Node, 0, 32)
	}
	w.active = append(w.active, n)
}

// Leave takes n off the walk path.
func (w *Walker) Leave(n *yaml.Node) {
	for i := len(w.active) - 1; i >= 0; i-- {
		if w.active[i] == n {
			w.active = append(w.active[:i], w.active[i+1:]...)
			return
		}
	}
}

// Spend takes one node from the budget; when it runs out it reports once
// per file, at the node, and the rest of the file is not read. idx >= 0
// names item idx of the list at in.
func (w *Walker) Spend(at *yaml.Node, in Place, idx int) bool {
	return w.spend(at, 1+w.aliasCost(at), in, idx)
}

// aliasCost is the extra nodes the alias n spends for the text it repeats
// (0 for a node that is not an alias): a node per AliasTextPerNode bytes.
func (w *Walker) aliasCost(n *yaml.Node) int {
	if n == nil || n.Kind != yaml.AliasNode {
		return 0
	}
	return w.texts.Of(Deref(n)) / AliasTextPerNode
}

// spend takes cost nodes from the budget, as Spend.
func (w *Walker) spend(at *yaml.Node, cost int, in Place, idx int) bool {
	w.Budget -= cost
	if w.Budget >= 0 {
		return true
	}
	if !w.exhausted {
		w.exhausted = true
		where := in.String()
		if idx >= 0 {
			where = Indexed(where, idx)
		}
		w.Report(w.Pos(at), diag.Error, w.Rules.Syntax, "%s: the file expands to more than %d YAML nodes%s (an alias bomb: aliases expanding to far more nodes than the file holds, an alias counting a node per %d bytes of the text it repeats); kitsoki stops reading it here rather than drop the rest: shrink or split it", where, w.Limit, w.LimitNote, AliasTextPerNode)
	}
	return false
}

// Open starts reading the collection n (aliases followed) of kind: false
// for null, another kind (reported) or too deep; on true, Leave the result.
func (w *Walker) Open(n *yaml.Node, kind yaml.Kind, at Place) (*yaml.Node, bool) {
	orig := n
	n = Deref(n)
	if IsNull(n) {
		return nil, false
	}
	if n.Kind != kind {
		what := "a mapping"
		if kind == yaml.SequenceNode {
			what = "a list"
		}
		w.ReportAt(w.Pos(orig), at, diag.Error, w.Rules.Type, "%s: expected %s, got %s", at.String(), what, KindName(n))
		return nil, false
	}
	if !w.Enter(n, orig, at) {
		return nil, false
	}
	return n, true
}

// Mapping iterates the key/value pairs of the mapping n named where,
// reporting duplicate keys, unusable merge keys and, when known is set,
// unknown keys; false if n is not a mapping.
func (w *Walker) Mapping(n *yaml.Node, where string, known []string, fn func(key string, k, v *yaml.Node)) bool {
	return w.MappingIn(n, Place{Where: where}, known, diag.Error, fn)
}

// MappingIn is Mapping for the place at, unknown keys reported at unknownSev.
func (w *Walker) MappingIn(n *yaml.Node, at Place, known []string, unknownSev diag.Severity, fn func(key string, k, v *yaml.Node)) bool {
	return w.mapping(n, at, unknownSev, known, nil, Place{}, fn)
}

// maxSuggestedKeys is how many unknown keys of one mapping get a
// did-you-mean: a file of nothing but unknown keys would otherwise pay a
// search of the known keys for each, and nobody reads past the first few.
const maxSuggestedKeys = 100

// mapping is MappingIn with the known keys as known or as the table fs.
func (w *Walker) mapping(n *yaml.Node, at Place, unknownSev diag.Severity, known []string, fs Fields, vals Place, fn func(key string, k, v *yaml.Node)) bool {
	n, ok := w.Open(n, yaml.MappingNode, at)
	if !ok {
		return false
	}
	defer w.Leave(n)
	seen := NewSeen(n)
	var names []string // the known keys, listed at the first unknown one
	unknowns := 0
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !w.spend(n.Content[i], 1+w.aliasCost(n.Content[i])+w.aliasCost(n.Content[i+1]), at, -1) {
			return true
		}
		k, v := Deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			w.ReportAt(w.Pos(k), at, diag.Error, w.Rules.Type, "%s: mapping keys must be strings, got %s", at.String(), KindName(k))
			continue
		}
		key := w.Intern(k.Value)
		if k.Tag == "!!merge" {
			// `<<: *anchor` merges another mapping in.
			src := Deref(v)
			if src != nil && src.Kind == yaml.MappingNode {
				w.mapping(src, at, unknownSev, known, fs, vals, fn)
			} else if src != nil && src.Kind == yaml.SequenceNode {
				w.mergedList(src, at, known != nil || fs != nil)
				for _, it := range src.Content {
					w.mapping(it, at, unknownSev, known, fs, vals, fn)
				}
			}
			continue
		}
		if prev := seen.Prev(i, key); prev != nil {
			through := ""
			if a := n.Content[i]; a.Kind == yaml.AliasNode {
				through = fmt.Sprintf(" (given again through the alias key *%s)", a.Value)
			}
			w.ReportAt(w.Pos(n.Content[i]), at, diag.Error, w.Rules.Duplicate, "%s: mapping key %q already defined at line %d, column %d%s", at.String(), key, prev.Line, prev.Column, through)
			continue
		}
		var f *Field
		unknown := known != nil && !slices.Contains(known, key)
		if fs != nil {
			f = fs.Find(key)
			unknown = f == nil
		}
		if unknown {
			unknowns++
			msg := fmt.Sprintf("%s: unknown key %q", at.String(), key)
			switch {
			case unknowns <= maxSuggestedKeys:
				if names == nil {
					names = known
					if fs != nil {
						names = fs.Keys()
					}
				}
				if s := DidYouMean(key, names); s != "" {
					msg += "; " + s
				} else {
					msg += expectedOneOf(names)
				}
			case unknowns == maxSuggestedKeys+1:
				msg += fmt.Sprintf(" (no did-you-mean for the unknown keys of this mapping past the first %d)", maxSuggestedKeys)
			}
			w.ReportAt(w.Pos(k), at, unknownSev, w.Rules.Unknown, "%s", msg)
			continue
		}
		if fn != nil {
			fn(key, k, v)
		}
		if f != nil {
			w.read(f, key, vals, k, v)
		}
	}
	return true
}

// mergedList reports the merged list src (`<<: [*a, *b]`, or `<<: *a` of
// a list) where a typed decoder (Typed) refuses it: into a record of
// named keys at all, into a map when two of its mappings share a key.
func (w *Walker) mergedList(src *yaml.Node, at Place, record bool) {
	switch {
	case !w.Typed:
	case record:
		w.ReportAt(w.Pos(src), at, diag.Error, w.Rules.Type, "%s: <<: merges a list of mappings, which the existing engine cannot merge here (sequence was used where mapping is expected); merge one mapping (<<: *a) or write the keys out", at.String())
	default:
		if second, first := newDecodedSearch().mergedListRepeat(src); second != nil && w.Rules.Duplicate != nil {
			w.ReportAt(w.Pos(second), at, diag.Error, w.Rules.Duplicate, "%s: key %q is in two mappings of one merged list (<<: [...]), the first at line %d, column %d; the existing engine refuses the file (duplicate key %q): keep it in one of them", at.String(), second.Value, first.Line, first.Column, second.Value)
		}
	}
}

// Seq iterates the items of the list n named where; null is an empty list.
func (w *Walker) Seq(n *yaml.Node, where string, fn func(i int, item *yaml.Node)) bool {
	return w.SeqAt(n, Place{Where: where}, fn)
}

// SeqAt is Seq for the list named at.
func (w *Walker) SeqAt(n *yaml.Node, at Place, fn func(i int, item *yaml.Node)) bool {
	n, ok := w.Open(n, yaml.SequenceNode, at)
	if !ok {
		return false
	}
	defer w.Leave(n)
	for i, it := range n.Content {
		if !w.Spend(it, at, i) {
			return true
		}
		fn(i, it)
	}
	return true
}

// MappingList is what read makes of each pair of the mapping n, in order,
// in one allocation; nil when there is none.
func MappingList[T any](w *Walker, n *yaml.Node, where string, read func(key string, k, v *yaml.Node) T) []T {
	var out []T
	if d := Deref(n); d != nil && d.Kind == yaml.MappingNode && len(d.Content) >= 2 {
		out = make([]T, 0, len(d.Content)/2)
	}
	w.Mapping(n, where, nil, func(key string, k, v *yaml.Node) { out = append(out, read(key, k, v)) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// SeqList is what read makes of each item of the list n, in order, in one
// allocation; nil when there is none.
func SeqList[T any](w *Walker, n *yaml.Node, where string, read func(i int, item *yaml.Node) T) []T {
	var out []T
	if d := Deref(n); d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
		out = make([]T, 0, len(d.Content))
	}
	w.Seq(n, where, func(i int, it *yaml.Node) { out = append(out, read(i, it)) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// maxExpected bounds the keys an unknown-key message lists.
const maxExpected = 40

// expectedOneOf is "; expected one of `a`, `b`" over the sorted known
// keys, so an author with no close spelling still sees what the place
// takes; "" when there are none or too many to read.
func expectedOneOf(names []string) string {
	if len(names) == 0 || len(names) > maxExpected {
		return ""
	}
	sorted := slices.Sorted(slices.Values(names))
	return "; expected one of `" + strings.Join(slices.Compact(sorted), "`, `") + "`"
}
