package host

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

// TestHTTPCassetteAliasTextBounded: a Starlark http or inspect cassette's
// aliases repeat at most yamlnode.MaxAliasText of text, as a fixture
// file's do; the error names the cassette and the alias's line. Before, a
// 1 MB url_pattern anchor named by 70 exchanges was compiled 70 times.
func TestHTTPCassetteAliasTextBounded(t *testing.T) {
	cassette := func(anchors, pattern string, n int) []byte {
		var b strings.Builder
		b.WriteString("kind: http_cassette\nx-anchors: " + anchors + "\nexchanges:\n")
		for range n {
			b.WriteString("  - {match: {method: GET, url_pattern: " + pattern + "}, response: {status: 200, body: ok}}\n")
		}
		return []byte(b.String())
	}
	_, err := ParseHTTPCassette("h.yaml", cassette(aliasmb.Anchors(), "*mb", 70), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "h.yaml:67: the aliases of this http cassette repeat more than 64 MB") {
		t.Fatalf("a 1 MB url_pattern in 70 exchanges: %v", err)
	}
	if c, err := ParseHTTPCassette("h.yaml", cassette("{p: &p 'https://x/.*'}", "*p", 200), nil); err != nil || len(c.Exchanges) != 200 {
		t.Fatalf("a short anchor in 200 exchanges: %v", err)
	}
	insp := "kind: inspect_cassette\nx-anchors: " + aliasmb.Anchors() + "\ninteractions:\n" + strings.Repeat("  - {op: run, target: *mb, exit: 0, out: *mb}\n", 35)
	if _, err := ParseInspectCassette("i.yaml", []byte(insp)); err == nil || !strings.Contains(err.Error(), "the aliases of this inspect cassette repeat more than") {
		t.Errorf("inspect cassette: %v", fmt.Sprint(err)[:min(len(fmt.Sprint(err)), 300)])
	}
}
