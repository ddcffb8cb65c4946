package host

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// httpStatus is an http cassette response's status: as written, null or
// absent 0. As upstream's decoder reads it, a float is truncated toward
// zero and so is a quoted number ("404", "+200", "2e2", "199.99"); an
// int past Go's int (9223372036854775808) is refused naming its line; a
// quoted negative one (but "-0"), a quoted text that is no number ("abc",
// " 200", "0x1F4", "") and a bool are refused at load (conformance
// star-http-status-text).
type httpStatus int

func (s *httpStatus) UnmarshalYAML(n *yaml.Node) error {
	bad := func() error {
		return fmt.Errorf("line %d: status %q is not a number: write the HTTP status as digits (status: 200)", n.Line, n.Value)
	}
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: status is a %s, not a number: write the HTTP status as digits (status: 200)", n.Line, kindName(n.Kind))
	}
	switch n.ShortTag() {
	case "!!null":
		*s = 0
		return nil
	case "!!int":
		var i int
		if n.Decode(&i) != nil {
			return fmt.Errorf("line %d: status %q is out of range: write the HTTP status as digits (status: 200)", n.Line, n.Value)
		}
		*s = httpStatus(i)
		return nil
	case "!!float", "!!str":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f > math.MaxInt32 || f < math.MinInt32 {
			return bad()
		}
		if n.ShortTag() == "!!str" && f < 0 && math.Trunc(f) != 0 {
			return bad()
		}
		*s = httpStatus(math.Trunc(f))
		return nil
	}
	return bad()
}

// LooseHTTPStatus is the status an http cassette's status: node n is
// read as when it is written loosely, as a quoted number or a float
// (truncated toward zero on both engines: "199.99" is 199); false for a
// plain integer, null, or a status the cassette is refused for. validate
// warns at such a status (flow-cassette-status).
func LooseHTTPStatus(n *yaml.Node) (int, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!str" && n.ShortTag() != "!!float") {
		return 0, false
	}
	var s httpStatus
	if s.UnmarshalYAML(n) != nil {
		return 0, false
	}
	return int(s), true
}

// kindName names a YAML node kind for a message.
func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}
