package host

import (
	"math"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/refusal"
)

// FuzzHTTPStatus: an HTTP cassette's `status:` written any way gives the
// number yaml.v3 reads from it (an int as written; a float, or a quoted
// number, truncated toward zero), or a refusal that leads with the file on
// one line without a Go type, never a panic.
func FuzzHTTPStatus(f *testing.F) {
	for _, s := range []string{`200`, `"404"`, `"+200"`, `"2e2"`, `"199.99"`, `"-0"`, `1e3`, `200.5`, `-1`, `~`, `0x1F4`,
		`"abc"`, `" 200"`, `"0x1F4"`, `""`, `"-1"`, `true`, `[200]`, `.inf`, `"NaN"`, `{a: 1}`, `!!str 200`, `0o17`, `1_000`, `!!int abc`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, status string) {
		doc := []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET, url: u}\n    response: {status: " + status + "}\n")
		c, err := ParseHTTPCassette("h.yaml", doc, nil)
		if err != nil {
			refusal.Leads(t, doc, err.Error(), "h.yaml")
			return
		}
		var ref struct {
			Exchanges []struct {
				Response struct {
					Status any `yaml:"status"`
				} `yaml:"response"`
			} `yaml:"exchanges"`
		}
		if yaml.Unmarshal(doc, &ref) != nil || len(ref.Exchanges) != 1 || len(c.Exchanges) != 1 {
			return // the line was more than a status; the cassette's other tests own it
		}
		got := c.Exchanges[0].Status
		want, ok := 0, true
		switch v := ref.Exchanges[0].Response.Status.(type) {
		case nil:
		case int:
			want = v
		case float64:
			want = int(math.Trunc(v))
		case string:
			fl, perr := strconv.ParseFloat(v, 64)
			want, ok = int(math.Trunc(fl)), perr == nil
		default:
			ok = false
		}
		if !ok || got != want {
			t.Fatalf("status %s: read %d, yaml.v3 reads %#v", status, got, ref.Exchanges[0].Response.Status)
		}
	})
}
