package host

import (
	"fmt"
	"strings"
	"testing"
)

// TestHTTPCassetteAliasTextBounded: a Starlark http or inspect cassette's
// aliases repeat at most yamlnode.MaxAliasText of text, as a fixture
// file's do; the error names the cassette and the alias's line. Before, a
// 1 MB url_pattern anchor named by 70 exchanges was compiled 70 times.
func TestHTTPCassetteAliasTextBounded(t *testing.T) {
	cassette := func(anchor string, n int) []byte {
		var b strings.Builder
		b.WriteString("kind: http_cassette\nx-big: &big " + anchor + "\nexchanges:\n")
		for range n {
			b.WriteString("  - {match: {method: GET, url_pattern: *big}, response: {status: 200, body: ok}}\n")
		}
		return []byte(b.String())
	}
	_, err := ParseHTTPCassette("h.yaml", cassette(strings.Repeat("v", 1<<20), 70))
	if err == nil || !strings.HasPrefix(err.Error(), "h.yaml:65: the aliases of this http cassette repeat more than 64 MB") {
		t.Fatalf("a 1 MB url_pattern in 70 exchanges: %v", err)
	}
	if c, err := ParseHTTPCassette("h.yaml", cassette("https://x/.*", 200)); err != nil || len(c.Exchanges) != 200 {
		t.Fatalf("a short anchor in 200 exchanges: %v", err)
	}
	insp := "kind: inspect_cassette\nx-big: &big " + strings.Repeat("v", 1<<20) + "\ninteractions:\n" + strings.Repeat("  - {op: run, target: *big, exit: 0, out: *big}\n", 35)
	if _, err := ParseInspectCassette("i.yaml", []byte(insp)); err == nil || !strings.Contains(err.Error(), "the aliases of this inspect cassette repeat more than") {
		t.Errorf("inspect cassette: %v", fmt.Sprint(err)[:min(len(fmt.Sprint(err)), 300)])
	}
}
