package host

import (
	"strings"
	"testing"
)

// A header value that is a list or a mapping is refused at load, naming
// the exchange and the header (upstream's run stops there: conformance
// star-http-scalar-text, whose report cannot hold it); scalars are text.
func TestHTTPCassetteHeaderForms(t *testing.T) {
	load := func(v string) (*HTTPCassette, error) {
		return ParseHTTPCassette("h.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET, url: u}\n    response: {status: 200, headers: {A: "+v+"}}\n"), nil)
	}
	for v, kind := range map[string]string{"[x, y]": "holds a list", "{k: v}": "holds a mapping"} {
		_, err := load(v)
		if err == nil || !strings.Contains(err.Error(), "h.yaml:3: exchanges[0]: response.headers") || !strings.Contains(err.Error(), `"A" `+kind) || strings.Contains(err.Error(), "interface") {
			t.Errorf("header %s: %v (want the header named, %q, and no Go type)", v, err, kind)
		}
	}
	for v, want := range map[string]string{"1.0": "1", "0x1F": "31", "True": "true", "~": "", "2026-01-02": "2026-01-02", "1e3": "1e3", `"x"`: "x"} {
		c, err := load(v)
		if err != nil || c.Exchanges[0].Headers["A"] != want {
			t.Errorf("header %s: got %v, %v; want %q", v, c, err, want)
		}
	}
}

// An inspect cassette's target and out read the same way; a list is
// refused naming the interaction.
func TestInspectCassetteScalarText(t *testing.T) {
	c, err := ParseInspectCassette("i.yaml", []byte("kind: inspect_cassette\ninteractions:\n  - {op: read, target: 1.0, out: 1000000.0}\n"))
	if err != nil || c.Interactions[0].Target != "1" || c.Interactions[0].Out != "1e+06" {
		t.Fatalf("got %+v, %v", c, err)
	}
	if _, err := ParseInspectCassette("i.yaml", []byte("kind: inspect_cassette\ninteractions:\n  - {op: read, target: a, out: [x]}\n")); err == nil || !strings.Contains(err.Error(), "i.yaml:3: interactions[0]") {
		t.Errorf("a list out: %v", err)
	}
}
