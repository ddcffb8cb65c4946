package host

import (
	"math"
	"strings"
	"testing"
)

// An http cassette status is read as upstream's decoder reads it: quoted
// numbers and floats truncated toward zero, null 0; a quoted text that is
// no number, a quoted negative one, a bool or a list is refused at load,
// naming the line and the fix (conformance star-http-status-text, whose
// upstream run cannot hold the refusals: upstream stops the whole run).
func TestHTTPCassetteStatusForms(t *testing.T) {
	load := func(status string) (int, error) {
		c, err := ParseHTTPCassette("h.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET, url: u}\n    response: {status: "+status+"}\n"), nil)
		if err != nil {
			return 0, err
		}
		return c.Exchanges[0].Status, nil
	}
	wide := map[string]int{ // star-http-status-wide: upstream reads into a 64-bit int
		`"4294967297"`: 4294967297, `4294967297`: 4294967297, `"4294967297.5"`: 4294967297, `1e10`: 1e10, `"1e10"`: 1e10,
		`-3.9e9`: -3.9e9, `9.2e18`: 9.2e18, `-9223372036854775808`: math.MinInt64, `"9223372036854775807"`: math.MinInt64,
		`"18446744073709551616"`: math.MinInt64, `-0.5`: 0,
	}
	for in, want := range map[string]int{`"404"`: 404, `"+200"`: 200, `"2e2"`: 200, `"199.99"`: 199, `"-0"`: 0, `1e3`: 1000, `200.5`: 200, `-1`: -1, `~`: 0, `0x1F4`: 500} {
		wide[in] = want
	}
	for in, want := range wide {
		if got, err := load(in); err != nil || got != want {
			t.Errorf("status %s: got %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{`"abc"`, `" 200"`, `"0x1F4"`, `""`, `"-1"`, `true`, `[200]`, `.inf`, `"NaN"`, `"-0.5"`, `"-1e10"`, `"1.845e19"`, `"2e19"`, `9223372036854775808`, `-9223372036854775809`, `1.2e19`, `-1e19`} {
		if _, err := load(in); err == nil || !strings.Contains(err.Error(), "h.yaml") || !strings.Contains(err.Error(), "status: 200") {
			t.Errorf("status %s: err %v, want a refusal naming the file and the fix", in, err)
		}
	}
}
