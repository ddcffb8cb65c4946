package yamlnode

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// Str decodes a scalar as a string: numbers and bools as their text, null
// as ""; lists and maps are type errors.
func (w *Walker) Str(n *yaml.Node, where string) string {
	orig := n
	n = Deref(n)
	if IsNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		w.Report(w.Pos(orig), diag.Error, w.Rules.Type, "%s: expected a string, got %s", where, KindName(n))
		return ""
	}
	return w.Intern(n.Value)
}

// plain returns n's text when n is a non-null scalar: the common case of
// the Str variants, which put a place's name together only for an error.
func (w *Walker) plain(n *yaml.Node) (string, bool) {
	if d := Deref(n); d != nil && d.Kind == yaml.ScalarNode && !IsNull(d) {
		return w.Intern(d.Value), true
	}
	return "", false
}

// StrAt is Str(n, where+"[i]").
func (w *Walker) StrAt(n *yaml.Node, where string, i int) string {
	if s, ok := w.plain(n); ok {
		return s
	}
	return w.Str(n, Indexed(where, i))
}

// StrAtPl is Str(n, at+"."+key).
func (w *Walker) StrAtPl(n *yaml.Node, at Place, key string) string {
	if s, ok := w.plain(n); ok {
		return s
	}
	return w.Str(n, at.Dot(key))
}

// boolAtPl is Boolean(n, at+"."+key).
func (w *Walker) boolAtPl(n *yaml.Node, at Place, key string) bool {
	if d := Deref(n); d != nil && d.Kind == yaml.ScalarNode && (!w.Typed || d.Tag == "!!bool") {
		if b, ok := Bool(d.Value); ok {
			return b
		}
	}
	return w.Boolean(n, at.Dot(key))
}

// Boolean decodes a YAML 1.1 boolean word; null is false.
func (w *Walker) Boolean(n *yaml.Node, where string) bool {
	orig := n
	n = Deref(n)
	if IsNull(n) {
		return false
	}
	if n.Kind == yaml.ScalarNode && (!w.Typed || n.Tag == "!!bool") {
		if b, ok := Bool(n.Value); ok {
			return b
		}
	}
	w.Report(w.Pos(orig), diag.Error, w.Rules.Type, "%s: expected true or false, got %s", where, Describe(n))
	return false
}

// BoolPtr is Boolean, nil for null.
func (w *Walker) BoolPtr(n *yaml.Node, where string) *bool {
	if IsNull(n) {
		return nil
	}
	b := w.Boolean(n, where)
	return &b
}

// Float decodes a number, nil for null.
func (w *Walker) Float(n *yaml.Node, where string) *float64 {
	orig := n
	n = Deref(n)
	if IsNull(n) {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return &v
		}
	}
	w.Report(w.Pos(orig), diag.Error, w.Rules.Type, "%s: expected a number, got %s", where, Describe(n))
	return nil
}

// StrList decodes a list of strings (one scalar is a list of one); empty is nil.
func (w *Walker) StrList(n *yaml.Node, where string) []string {
	d := Deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !IsNull(d) {
		if w.Typed {
			w.Report(w.Pos(n), diag.Error, w.Rules.Type, "%s: expected a list, got %s (write [%s])", where, Describe(d), d.Value)
		}
		return []string{d.Value}
	}
	return SeqList(w, n, where, func(i int, it *yaml.Node) string { return w.StrAt(it, where, i) })
}

// ItemPos is the position of each item StrList reads from n, in order.
func (w *Walker) ItemPos(n *yaml.Node) []Pos {
	d := Deref(n)
	if d == nil || IsNull(d) {
		return nil
	}
	if d.Kind != yaml.SequenceNode {
		return []Pos{w.Pos(n)}
	}
	out := make([]Pos, 0, len(d.Content))
	for _, it := range d.Content {
		out = append(out, w.Pos(it))
	}
	return out
}

// StrMap decodes a mapping of strings (any key).
func (w *Walker) StrMap(n *yaml.Node, where string) map[string]string {
	out := map[string]string{}
	w.Mapping(n, where, nil, func(key string, _, v *yaml.Node) {
		out[key] = w.Str(v, where+"."+KeyText(key))
	})
	return out
}

// Raw converts a node to a plain Go value within the node budget and depth
// limit; merge keys merge, in file order (a later key wins: mergeInto).
func (w *Walker) Raw(n *yaml.Node) any {
	return w.rawDepth(n, 0)
}

func (w *Walker) rawDepth(n *yaml.Node, depth int) any {
	orig := n
	n = Deref(n)
	if n == nil || !w.Spend(orig, Place{Where: "value"}, -1) {
		return nil
	}
	if depth > maxDepth {
		if !w.exhausted {
			w.exhausted = true
			w.Report(w.Pos(orig), diag.Error, w.Rules.Syntax, "value: YAML nested more than 200 levels deep; kitsoki stops reading it here: flatten it")
		}
		return nil
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if slices.Contains(w.active, n) {
			w.Report(w.Pos(orig), diag.Error, w.Rules.Syntax, "value: recursive YAML (an alias refers to its own ancestor)")
			return nil
		}
		w.push(n)
		defer w.Leave(n)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return w.rawDepth(n.Content[0], depth+1)
		}
		return nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, w.rawDepth(c, depth+1))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		var seen map[string]*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := Deref(n.Content[i])
			if k == nil {
				continue
			}
			if k.Tag == "!!merge" {
				// `<<: *a` or `<<: [*a, *b]` (keys in file order, the later wins).
				src := w.rawDepth(n.Content[i+1], depth+1)
				if !w.mergeInto(out, n.Content[i], src) {
					return out
				}
				continue
			}
			// A key written twice is refused, as upstream's decoder does everywhere.
			if prev := seen[k.Value]; prev != nil && w.Rules.Duplicate != nil {
				w.Report(w.Pos(n.Content[i]), diag.Error, w.Rules.Duplicate, "value: mapping key %q already defined at line %d, column %d", k.Value, prev.Line, prev.Column)
				continue
			}
			if seen == nil {
				seen = map[string]*yaml.Node{}
			}
			seen[k.Value] = k
			out[w.Intern(k.Value)] = w.rawDepth(n.Content[i+1], depth+1)
		}
		return out
	case yaml.ScalarNode:
		if w.Rules.NumberText != nil && PointlessFloat(n) {
			w.Report(w.Pos(orig), diag.Warning, w.Rules.NumberText, "%s", numberTextMessage(n.Value))
		}
		switch n.Tag {
		case "!!null", "!!bool", "!!int", "!!float", "!!binary":
			return StoryScalars.Value(n)
		}
		return w.Intern(n.Value)
	}
	return nil
}

// mergeInto copies into out the keys of the value of a merge key (`<<:`): a
// mapping, or a list of them in order. As upstream's decoder reads a value,
// keys count in file order, a later one replacing an earlier one: a merge
// replaces the keys written before it, a later mapping of the list an
// earlier one's, and keys written after the merge replace it
// (docs/compat/story-format.md "Merge keys in values"). Each entry copied
// is first taken from the budget, and none is copied when it runs out
// (false): a chain of mappings each merging the one before (`x2: &a2
// {<<: *a1, k2: 1}`, ...) copies the whole chain into every link,
// quadratic in the links, where each link visits only a few nodes.
func (w *Walker) mergeInto(out map[string]any, at *yaml.Node, src any) bool {
	srcs, ok := src.([]any)
	if !ok {
		srcs = []any{src}
	}
	for _, s := range srcs {
		m, _ := s.(map[string]any)
		for range len(m) {
			if !w.Spend(at, Place{Where: "value"}, -1) {
				return false
			}
		}
	}
	for _, s := range srcs {
		m, _ := s.(map[string]any)
		maps.Copy(out, m)
	}
	return true
}

// numberTextMessage says that the value v (a PointlessFloat) is read as
// text, why, and how to write the number it looks like.
func numberTextMessage(v string) string {
	msg := fmt.Sprintf("%s is read as the text %q, not as a number: ", v, v)
	if plusInf(v) {
		return msg + fmt.Sprintf("the existing engine reads no sign before the infinity (write %s), or quote it to keep the text", v[1:])
	}
	if i := strings.IndexAny(v, "eE"); i > 0 {
		return msg + fmt.Sprintf("an exponent needs a decimal point (write %s.0%s), or quote it to keep the text", v[:i], v[i:])
	}
	digits := strings.TrimLeft(v, "+-")
	if t := strings.TrimLeft(digits, "0_"); t != digits {
		if _, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 10, 64); err == nil {
			return msg + fmt.Sprintf("a leading zero makes it octal, which it is not (write %s%s), or quote it to keep the text", v[:len(v)-len(digits)], t)
		}
	}
	return msg + "it does not fit a 64-bit integer; quote it to keep the text"
}
