package agent

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

// TestCassetteAliasTextBounded: a cassette's aliases repeat at most
// yamlnode.MaxAliasText of text, as a fixture file's do (each replay
// repeats its answer into the run and the trace); the error names the
// cassette and the alias's line.
func TestCassetteAliasTextBounded(t *testing.T) {
	cassette := func(anchors, text string, n int) []byte {
		var b strings.Builder
		b.WriteString("kind: host_cassette\nx-anchors: " + anchors + "\nepisodes:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: e%d, match: {interface: host.x}, response: {text: %s}}\n", i, text)
		}
		return []byte(b.String())
	}
	_, err := ParseCassette("c.yaml", cassette(aliasmb.Anchors(), "*mb", 70))
	if err == nil || !strings.Contains(err.Error(), `cassette: "c.yaml", line 67: the aliases of this cassette repeat more than 64 MB`) {
		t.Fatalf("a 1 MB anchor in 70 answers: %v", err)
	}
	if c, err := ParseCassette("c.yaml", cassette("{big: &big short}", "*big", 200)); err != nil || len(c.Episodes) != 200 {
		t.Fatalf("a short anchor in 200 answers: %v", err)
	}
}
