package agent

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// agentInt and agentFloat are an agent block's number keys (duration_ms,
// prompt_tokens, response_tokens, turn, cost_usd, and a transcript's
// timings) read as upstream's decoder reads them (conformance
// cassette-agent-numbers): null is 0, a YAML number is itself (a float
// written for an integer drops its fraction), and text is read when
// strconv.ParseFloat reads it ("720", "7.5", "+5", "1_000", "1e3";
// "0x10", "", " 7" and "x" refuse the cassette, as a bool, a list or a
// mapping does). Text read for an integer must not be negative ("-3"
// refuses it, as "inf" and "NaN" do); text read for a float may be any
// number ParseFloat reads, "-inf" and "NaN" included.
type (
	agentInt   int64
	agentFloat float64
)

func (n *agentInt) UnmarshalYAML(v *yaml.Node) error {
	f, text, err := agentNumber(v, "an integer")
	switch {
	case err != nil:
		return err
	case v.ShortTag() == "!!int":
		var i int64
		if err := v.Decode(&i); err != nil {
			return err
		}
		*n = agentInt(i)
		return nil
	case text && !(0 <= f && f <= math.MaxUint64), !text && !(f <= math.MaxInt64):
		return numberError(v, "an integer")
	}
	*n = agentInt(int64(f))
	return nil
}

func (n *agentFloat) UnmarshalYAML(v *yaml.Node) error {
	f, _, err := agentNumber(v, "a number")
	*n = agentFloat(f)
	return err
}

// agentNumber reads v as a number: its value, and whether it was written
// as text (a plain number the loader retagged as text, such as 1e3 or
// -1e3, is text upstream too: -1e3 refuses an integer key). null is 0.
func agentNumber(v *yaml.Node, want string) (f float64, text bool, err error) {
	if v.Kind != yaml.ScalarNode {
		return 0, false, numberError(v, want)
	}
	switch v.ShortTag() {
	case "!!null":
		return 0, false, nil
	case "!!int", "!!float":
		err = v.Decode(&f)
		return f, false, err
	case "!!str":
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil {
			return 0, false, numberError(v, want)
		}
		return f, true, nil
	}
	return 0, false, numberError(v, want)
}

// numberError is yaml.v3's type error for v where want is expected.
func numberError(v *yaml.Node, want string) error {
	shown := v.Value
	if v.Kind != yaml.ScalarNode {
		shown = "…"
	}
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s `%s` where %s is expected", v.Line, v.ShortTag(), shown, want)}}
}
