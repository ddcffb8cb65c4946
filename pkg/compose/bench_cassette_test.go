package compose

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/recost"
)

// BenchmarkParseHostCassette parses a host cassette of 12,000 episodes
// (about 3 MB), as each run does once per cassette's bytes.
func BenchmarkParseHostCassette(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("kind: host_cassette\nepisodes:\n")
	for i := range 12000 {
		fmt.Fprintf(&sb, "  - id: ep%d\n    match: {handler: host.run, args: {cmd: \"echo %d\"}}\n    response:\n      data: {stdout: \"episode %d padded padded padded padded padded\", code: 0}\n", i, i, i)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFlowHostCassette("c.yaml", data, recost.NewBudget()); err != nil {
			b.Fatal(err)
		}
	}
}
