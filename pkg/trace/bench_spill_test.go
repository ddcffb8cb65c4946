package trace

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAppendHugeValue appends events whose payload moves to blob
// files: an agent answer of 32 MiB (as a plugin answering near the 64 MiB
// frame cap sends, held by agent.call.complete, world.update and
// harness.returned), and one of 200 strings of 300 KiB each. B/op is the
// figure to watch: it was some 30 times the answer.
func BenchmarkAppendHugeValue(b *testing.B) {
	answer := spillText("big answer ", 32<<20)
	var mid []any
	for i := range 200 {
		mid = append(mid, spillText(fmt.Sprintf("mid %d ", i), 300<<10))
	}
	for _, bc := range []struct {
		name   string
		events []Event
	}{
		{"answer32MiB", []Event{
			{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: map[string]any{"verb": "ask", "response": map[string]any{"submission": map[string]any{"text": answer}}}},
			{Turn: 1, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"out": map[string]any{"text": answer}}}},
			{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"data": map[string]any{"ok": true, "stdout": answer, "submission": map[string]any{"text": answer}}}},
		}},
		{"mid200x300KiB", []Event{{Turn: 1, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"rows": mid}}}}},
		{"escaped32MiB", []Event{{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"stdout": strings.Repeat("a\"<\n", 8<<20)}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			w, err := CreateWith(filepath.Join(dir, "run.jsonl"), Header{}, Options{Sync: SyncNever})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				for _, ev := range bc.events {
					ev.Turn = i
					if err := w.Append(ev); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
