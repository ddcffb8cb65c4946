package jsonvalue

import (
	"strings"
	"testing"
)

// BenchmarkOneExactBigAnswer decodes an agent's answer of one 32 MiB
// string (and a small object around it), as the agent and the engine
// each decode a submission. B/op is the figure to watch: json.Decoder
// reads the whole value into a buffer of its own that doubles as it
// fills (a hand-written builder that avoided it was declined: issue 24).
func BenchmarkOneExactBigAnswer(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"plain32MiB", strings.Repeat("big answer ", 32<<20/11)},
		{"escaped32MiB", strings.Repeat(`a\"<\n`, 32<<20/6)},
	} {
		data := []byte(`{"n": 1, "submission": {"text": "` + bc.text + `"}}`)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := OneExact(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
