package yamlnode

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxAliasHops bounds Deref's chain of aliases (yaml.v3 builds none longer).
const maxAliasHops = 16

// Deref follows aliases to the node they name; nil for nil or a too-long chain.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// IsNull reports whether n (aliases followed) is absent, null or empty.
func IsNull(n *yaml.Node) bool {
	n = Deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") || n.Kind == 0
}

// KindName names n's kind in a type error: "a mapping", "a list", "an int".
func KindName(n *yaml.Node) string {
	n = Deref(n)
	if n == nil {
		return "null"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!bool":
			return "a bool"
		case "!!int":
			return "an int"
		case "!!float":
			return "a float"
		}
		return "a string"
	}
	return "an unknown node"
}

// Describe is what a type error shows of n: a scalar quoted (40 chars), else its kind.
func Describe(n *yaml.Node) string {
	n = Deref(n)
	if n != nil && n.Kind == yaml.ScalarNode {
		v := n.Value
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("%q", v)
	}
	return KindName(n)
}

// Scalars is one of two readings of a YAML scalar into a Go value.
// Upstream reads a story and a flow fixture with one decoder, and both
// readings follow it where it was probed: nil, bool, a whole number,
// uint64 (a whole number from 2^63 to 2^64), float64, []byte or string; a
// `!!bool` by strconv's words or yes/no in any case; 0X, 0B and 0O as text
// (conformance yaml-scalar-one-reading). They part where their readers
// need them to:
//   - the Go type of a whole number, which marks a `-0` as signed by
//     being the other type: the story walker and the cassette reader
//     (UpstreamScalars) hold int and an int64 `-0` (conformance
//     story-minus-zero, cassette-minus-zero); the fixture reader
//     (pkg/flowtest scalarValue) holds int64 and an int `-0`, which its
//     yamlWhole turns into uint64 and a signed zero (fixture-minus-zero).
//     Either reader given the other's types fails the goldens.
//   - what neither upstream decoder reads and both refuse, a file
//     holding `!!bool on` or `!!bool ""`: false in a story, the text in
//     a fixture (docs/compat/yaml-numbers.md).
//   - a tagged number's text (`!!int 0o-5`, `!!int 1__0.5`,
//     `!!float -.nan`, `!!float 1__000.5`), where both readings differ
//     from upstream's in ways of their own (docs/compat/yaml-numbers.md).
type Scalars int

const (
	// StoryScalars reads a story file's scalars (the Walker's values) and
	// a cassette's `-0` and `!!binary`: whole numbers are int (`-0` an
	// int64), a `!!bool` upstream refuses is false, a `!!float` keeps
	// underscores and reads a signed NaN.
	StoryScalars Scalars = iota
	// FixtureScalars reads a flow fixture's scalars: whole numbers are
	// int64 (`-0` an int), a `!!bool` upstream refuses is its text, and a
	// tagged number's underscores are dropped.
	FixtureScalars
)

// Value is the scalar n's value as d reads it (n's tag says which kind;
// an untagged node is resolved as yaml.v3 resolves it).
func (d Scalars) Value(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		return d.boolean(n.Value)
	case "!!int":
		return d.whole(n.Value)
	case "!!float":
		if PointlessFloat(n) {
			return n.Value
		}
		if f, ok := d.float(n.Value); ok {
			return f
		}
		return n.Value
	case "!!binary":
		// the bytes its base64 decodes to, up to the first bad character,
		// as upstream's decoder gives them (conformance story-binary)
		b, _ := base64.StdEncoding.DecodeString(n.Value)
		return b
	}
	return n.Value
}

func (d Scalars) boolean(v string) any {
	if b, ok := tagBool(v); ok {
		return b
	}
	if d == StoryScalars {
		return false
	}
	return v
}

// tagBool reads a `!!bool`'s text as both of upstream's decoders do:
// strconv's words (1, t, T, TRUE, true, True, 0, f, ...) and yes or no in
// any case; anything else (on, off, y, "") is no boolean to them
// (conformance yaml-bool-tag).
func tagBool(v string) (value, ok bool) {
	switch {
	case strings.EqualFold(v, "yes"):
		return true, true
	case strings.EqualFold(v, "no"):
		return false, true
	}
	b, err := strconv.ParseBool(v)
	return b, err == nil
}

// whole reads a `!!int`'s text v: a whole number, a uint64 past int64,
// else a float, else the text.
func (d Scalars) whole(v string) any {
	s := strings.ReplaceAll(v, "_", "")
	if u := strings.TrimLeft(s, "+-"); len(u) > 1 && u[0] == '0' && strings.ContainsRune("XBO", rune(u[1])) {
		return v // upstream's decoders know 0x, 0b, 0o only in lower case: 0X1f is text (probe flowwalk p19; conformance fixture-scalar-text, yaml-scalar-one-reading)
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		switch {
		case d == StoryScalars && i == 0 && strings.HasPrefix(v, "-"):
			return int64(0)
		case d == StoryScalars:
			return int(i)
		case i == 0 && strings.HasPrefix(s, "-"):
			return int(0)
		}
		return i
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u // between 2^63 and 2^64: upstream's decoder holds a uint64 (conformance values-uint64)
	}
	if d == StoryScalars {
		s = v
	} else if strings.HasPrefix(s, "0o") {
		if i, err := strconv.ParseInt(s[2:], 8, 64); err == nil {
			return i
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return v
}

// float reads a `!!float`'s text v, false when it is no number.
func (d Scalars) float(v string) (float64, bool) {
	t := floatText(v)
	if d == FixtureScalars {
		switch strings.ToLower(v) {
		case ".inf", "+.inf", "-.inf", ".nan":
		default:
			t = strings.ReplaceAll(v, "_", "")
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil
}

// PointlessFloat reports whether n is a plain scalar yaml.v3 reads as a
// float although it has no decimal point (1e3, 08) or is an infinity
// with a plus sign (+.inf): kitsoki reads it as its text, as the existing
// engine does (docs/compat/yaml-numbers.md).
func PointlessFloat(n *yaml.Node) bool {
	return n.ShortTag() == "!!float" && n.Style&yaml.TaggedStyle == 0 && (!strings.Contains(n.Value, ".") || plusInf(n.Value))
}

// plusInf reports whether v is +.inf in one of YAML's spellings, which
// the existing engine reads as text (conformance yaml-non-finite).
func plusInf(v string) bool {
	return strings.HasPrefix(v, "+") && strings.EqualFold(v[1:], ".inf")
}

// Bool reads a YAML 1.1 boolean word (true/yes/on, false/no/off, any case).
func Bool(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	return false, false
}

// Get returns the value of key in the mapping n as written, nil when absent.
func Get(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Keys returns the keys of the mapping n (aliases followed), nil for a non-mapping.
func Keys(n *yaml.Node) []string {
	n = Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

// Indexed is where[i], as a message names a list item.
func Indexed(where string, i int) string {
	return where + "[" + strconv.Itoa(i) + "]"
}

// ErrLine splits a yaml.v3 error into the line it names (0 for none) and
// the message after it.
func ErrLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	rest, ok := strings.CutPrefix(msg, "line ")
	num, after, found := strings.Cut(rest, ":")
	line, e := strconv.Atoi(num)
	if !ok || !found || e != nil {
		return 0, msg
	}
	return line, strings.TrimSpace(after)
}

// TextPointlessFloats retags every PointlessFloat scalar under n as a
// string, so a yaml.v3 Decode reads it as its text; aliases not followed.
func TextPointlessFloats(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode && PointlessFloat(n) {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		TextPointlessFloats(c)
	}
}

// TextTimestamps retags every plain scalar under n that yaml.v3 would
// decode as a time (2001-12-14, 2001-12-14t21:59:43.10-05:00) as a string,
// so a Decode keeps its text as upstream's decoder does; a value tagged
// !!timestamp stays a time. Aliases not followed.
func TextTimestamps(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!timestamp" {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		TextTimestamps(c)
	}
}
