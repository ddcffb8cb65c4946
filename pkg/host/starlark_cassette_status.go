package host

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// httpStatus is an http cassette response's status: as written, null or
// absent 0. As upstream's decoder reads it, into a 64-bit int, a float is
// truncated toward zero and so is a quoted number ("404", "+200", "2e2",
// "199.99", "4294967297"); an int past int64 (9223372036854775808) is
// refused naming its line; a quoted number from 2^63 up to 2^64 is read
// as -9223372036854775808 (Go's conversion of a float past int64 on
// amd64); a quoted negative one (but "-0": "-0.5" too), one past 2^64, a
// quoted text that is no number ("abc", " 200", "0x1F4", "") and a bool
// are refused at load (conformance star-http-status-text,
// star-http-status-wide). A float past int64 is refused here; upstream
// reads some as -9223372036854775808 (1e19, -1.8e19) and refuses others
// (1.2e19, -1e19): docs/compat/hosts.md.
type httpStatus int64

// twoTo63 and twoTo64 bound the quoted statuses upstream reads.
const (
	twoTo63 = 1 << 63
	twoTo64 = 1 << 64
)

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
		var i int64
		if n.Decode(&i) != nil {
			return fmt.Errorf("line %d: status %q is out of range: write the HTTP status as digits (status: 200)", n.Line, n.Value)
		}
		*s = httpStatus(i)
		return nil
	case "!!float", "!!str":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return bad()
		}
		return s.fromFloat(f, n.ShortTag() == "!!str", n.Line, n.Value)
	}
	return bad()
}

// fromFloat sets a float or quoted status f as upstream reads it.
func (s *httpStatus) fromFloat(f float64, quoted bool, line int, text string) error {
	switch {
	case quoted && f < 0:
		return fmt.Errorf("line %d: status %q is negative: write the HTTP status as digits (status: 200)", line, text)
	case quoted && f > twoTo64, !quoted && (f >= twoTo63 || f < -twoTo63):
		return fmt.Errorf("line %d: status %q is out of range: write the HTTP status as digits (status: 200)", line, text)
	case f >= twoTo63:
		*s = math.MinInt64
	default:
		*s = httpStatus(math.Trunc(f))
	}
	return nil
}

// LooseHTTPStatus is the status an http cassette's status: node n is
// read as when it is written loosely, as a quoted number or a float
// (truncated toward zero on both engines: "199.99" is 199); false for a
// plain integer, null, or a status the cassette is refused for. validate
// warns at such a status (flow-cassette-status).
func LooseHTTPStatus(n *yaml.Node) (int64, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!str" && n.ShortTag() != "!!float") {
		return 0, false
	}
	var s httpStatus
	if s.UnmarshalYAML(n) != nil {
		return 0, false
	}
	return int64(s), true
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
