package yamlnode

import (
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// Integer decodes an integer field (an intent's priority, a plugin's port)
// as the existing engine's YAML decoder does, which depends on how the
// scalar is written (docs/compat/yaml-numbers.md, conformance
// priority-number-forms); null is 0. A number cut or moved to the lowest
// integer gets a number-text warning.
func (w *Walker) Integer(n *yaml.Node, where string) int {
	orig := n
	n = Deref(n)
	if IsNull(n) {
		return 0
	}
	v, exact, problem := int64(0), false, notNumber
	if n.Kind == yaml.ScalarNode {
		v, exact, problem = readInteger(n)
	}
	switch {
	case problem == notNumber:
		w.Report(w.Pos(orig), diag.Error, w.Rules.Type, "%s: expected an integer, got %s", where, Describe(n))
		return 0
	case problem != "":
		w.Report(w.Pos(orig), diag.Error, w.Rules.Type, "%s: expected an integer, got %s (%s)", where, Describe(n), problem)
		return 0
	case !exact && w.Rules.NumberText != nil:
		w.Report(w.Pos(orig), diag.Warning, w.Rules.NumberText, "%s: %q is read as the integer %d, as the existing engine reads it: write %d, or the whole number you mean", where, n.Value, v, v)
	}
	return int(v)
}

// notNumber is IntegerText's problem for a text that is no number.
const notNumber = "not a number"

// readInteger is Integer's reading: the value, whether exact, or why refused.
func readInteger(n *yaml.Node) (v int64, exact bool, problem string) {
	tagged := n.Style&yaml.TaggedStyle != 0
	plain := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	switch tag := n.ShortTag(); {
	case tagged && tag == "!!int":
		return 0, false, "write it without the !!int tag"
	case plain && tag == "!!int":
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			return 0, false, "it is past the 64-bit range"
		}
		return i, true, ""
	case plain && tag == "!!float" && !PointlessFloat(n):
		f, err := strconv.ParseFloat(floatText(n.Value), 64)
		if err != nil {
			return 0, false, "it is past the 64-bit range"
		}
		return IntegerFloat(f)
	}
	return IntegerText(n.Value)
}

// IntegerFloat is the integer upstream reads from a plain YAML number with
// a point: cut toward zero, the lowest integer below -2^63 or at 2^63; NaN
// and values above 2^63 are refused (problem says why).
func IntegerFloat(f float64) (v int64, exact bool, problem string) {
	if math.IsNaN(f) || f > 1<<63 {
		return 0, false, "it is past the 64-bit range"
	}
	i := truncate(f)
	return i, float64(i) == f, ""
}

// IntegerText is the integer upstream reads from a scalar it takes as
// text: the decimal number it spells, cut toward zero, the lowest integer
// from 2^63 on. No number (notNumber), a negative one, an infinity, NaN or
// a number past 2^64 is refused (problem says why).
func IntegerText(s string) (v int64, exact bool, problem string) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return 0, false, notNumber
	case f < 0:
		return 0, false, "a negative number reads only when written plain, whole or with a decimal point: -1000 or -1.0e3, not \"-1000\" or -1e3"
	case math.IsNaN(f) || f > math.MaxUint64:
		return 0, false, "write a whole number within the 64-bit range"
	}
	i := truncate(f)
	return i, float64(i) == f, ""
}

// floatText turns YAML's spellings of the infinities and NaN into Go's.
func floatText(s string) string {
	switch strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")) {
	case ".inf":
		return strings.TrimSuffix(s, strings.TrimLeft(s, "+-")) + "Inf"
	case ".nan":
		return "NaN"
	}
	return s
}

// truncate cuts f toward zero; outside the int64 range it is the lowest
// integer (Go's conversion on amd64, where upstream was built).
func truncate(f float64) int64 {
	if f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}
