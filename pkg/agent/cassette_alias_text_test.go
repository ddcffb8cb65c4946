package agent

import (
	"fmt"
	"strings"
	"testing"
)

// TestCassetteAliasTextBounded: a cassette's aliases repeat at most
// yamlnode.MaxAliasText of text, as a fixture file's do (each replay
// repeats its answer into the run and the trace); the error names the
// cassette and the alias's line.
func TestCassetteAliasTextBounded(t *testing.T) {
	cassette := func(anchor string, n int) []byte {
		var b strings.Builder
		b.WriteString("kind: host_cassette\nx-big: &big " + anchor + "\nepisodes:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: e%d, match: {interface: host.x}, response: {text: *big}}\n", i)
		}
		return []byte(b.String())
	}
	_, err := ParseCassette("c.yaml", cassette(strings.Repeat("v", 1<<20), 70))
	if err == nil || !strings.Contains(err.Error(), `cassette: "c.yaml", line 65: the aliases of this cassette repeat more than 64 MB`) {
		t.Fatalf("a 1 MB anchor in 70 answers: %v", err)
	}
	if c, err := ParseCassette("c.yaml", cassette("short", 200)); err != nil || len(c.Episodes) != 200 {
		t.Fatalf("a short anchor in 200 answers: %v", err)
	}
}
