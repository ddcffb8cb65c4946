package flowtest

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/termsafe"
	"kitsoki/internal/yamlnode"
)

// looseInt is an intent fixture's runs:, read as upstream's lenient
// decoder reads it (intents-conformance/loose-numbers).
type looseInt int

// looseFloat is an intent fixture's min_pass_rate:, read as looseInt is.
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
		return 0, false, fmt.Errorf("line %d: cannot unmarshal !!str `%s` where %s is expected; write a number", n.Line, termsafe.Line(n.Value), yamlnode.Shape(into))
	}
	return f, true, nil
}

// inputList is a fixture's inputs:, read as upstream's decoder reads it
// (intents-conformance/input-forms, docs/compat/yaml-numbers.md).
type inputList []string

// UnmarshalYAML reads an inputList.
func (l *inputList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		var s []string
		err := n.Decode(&s) // the decoder's own error for a non-list
		*l = s
		return err
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		s, err := inputText(c)
		if err != nil {
			return err
		}
		out = append(out, s)
	}
	*l = out
	return nil
}

func inputText(c *yaml.Node) (string, error) {
	if c.Kind != yaml.ScalarNode || c.Style != 0 || yamlnode.PointlessFloat(c) {
		var s string
		err := c.Decode(&s)
		return s, err
	}
	switch c.ShortTag() {
	case "!!null":
		return "", nil
	case "!!int", "!!bool":
		var v any
		if err := c.Decode(&v); err != nil {
			return "", err
		}
		return fmt.Sprint(v), nil
	case "!!float":
		var f float64
		if err := c.Decode(&f); err != nil {
			return "", err
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	}
	var s string
	err := c.Decode(&s)
	return s, err
}
