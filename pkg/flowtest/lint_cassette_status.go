package flowtest

import (
	"math"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/host"
)

// exchangeStatuses warns at each exchange of the fixture's
// starlark_http_cassette (doc, printed as name) whose response status: is
// a quoted number or a float: both engines read it truncated toward zero
// ("199.99" is 199, 1e3 is 1000), as upstream's decoder reads a number
// into an int (conformance star-http-status-text). A status the cassette
// is refused for the run reports.
func (l *fixtureLint) exchangeStatuses(doc *yaml.Node, name string) {
	for _, ex := range listAt(doc, "exchanges") {
		s := nodeAt(ex, "response", "status")
		v, ok := host.LooseHTTPStatus(s)
		if !ok {
			continue
		}
		written := s.Value
		if s.ShortTag() == "!!str" {
			written = `"` + s.Value + `"`
		}
		how := "a quoted number or a float is truncated toward zero"
		if v == math.MinInt64 {
			// conformance star-http-status-wide
			how = "a quoted number that rounds to 2^63 or more is read as the lowest 64-bit int"
		}
		l.cassetteWarn(name, s, ruleCassetteStatus,
			"status %s is no plain integer: both engines read it as %d (%s); write status: %d", written, v, how, v)
	}
}
