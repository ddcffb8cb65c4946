package flowtest

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// looseInt is an intent fixture's runs:, read as upstream's decoder reads
// it: a number (a fraction truncated), or a quoted string that parses as
// one ("2", "2.5"); other strings (" 2", "0x10", "") and negative ones
// ("-2", where an unquoted -2 is read) are refused
// (intents-conformance/loose-numbers).
type looseInt int

// looseFloat is an intent fixture's min_pass_rate:, read as looseInt is
// ("0.5" and "1e0" are numbers).
type looseFloat float64

// UnmarshalYAML reads a looseInt.
func (v *looseInt) UnmarshalYAML(n *yaml.Node) error {
	if f, ok, err := quotedNumber(n, "int"); ok || err != nil {
		if err == nil && (f < 0 || f >= math.MaxInt64) {
			// upstream reads a quoted count unsigned: "-2" overflows
			return fmt.Errorf("line %d: cannot unmarshal %s into int (overflow); write a count of 0 or more", n.Line, n.Value)
		}
		*v = looseInt(int(f))
		return err
	}
	var i int
	err := n.Decode(&i)
	*v = looseInt(i)
	return err
}

// UnmarshalYAML reads a looseFloat.
func (v *looseFloat) UnmarshalYAML(n *yaml.Node) error {
	if f, ok, err := quotedNumber(n, "float64"); ok || err != nil {
		*v = looseFloat(f)
		return err
	}
	var f float64
	err := n.Decode(&f)
	*v = looseFloat(f)
	return err
}

// quotedNumber reads a string scalar as a number: ok when n is one that
// parses, an error naming the line when it is one that does not.
func quotedNumber(n *yaml.Node, into string) (float64, bool, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	if err != nil {
		return 0, false, fmt.Errorf("line %d: cannot unmarshal !!str `%s` into %s; write a number", n.Line, n.Value, into)
	}
	return f, true, nil
}
