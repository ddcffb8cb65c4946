package trace

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkTraceAppend measures Writer.Append on a real file. Each append is
// fsynced, so the figure is bounded by the disk's fsync latency, not by
// encoding.
func BenchmarkTraceAppend(b *testing.B) {
	w, err := Create(filepath.Join(b.TempDir(), "bench.jsonl"), Header{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	payload := map[string]any{"from": "triage.collect", "intent": "collected", "slots": map[string]any{}, "to": "triage.decide"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Append(Event{Turn: i / 10, Kind: "machine.transition", StatePath: "triage.collect", Payload: payload}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkTraceEncode is the append path without the write and fsync.
func BenchmarkTraceEncode(b *testing.B) {
	payload := map[string]any{"from": "triage.collect", "intent": "collected", "slots": map[string]any{}, "to": "triage.decide"}
	for i := 0; i < b.N; i++ {
		ev := Event{Turn: 1, Kind: "machine.transition", StatePath: "triage.collect", Payload: payload}
		p, err := preparePayload(ev.Payload)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := encodeWire(&ev, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkTraceRead streams a realistic trace (~1.7 MB, with payloads).
func BenchmarkTraceRead(b *testing.B) {
	data := synthBytes(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd := NewReader(bytes.NewReader(data), ReadOptions{})
		n := 0
		for {
			_, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
}

// BenchmarkTraceVerify verifies the same trace (envelopes only, every rule).
func BenchmarkTraceVerify(b *testing.B) {
	data := synthBytes(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Verify(bytes.NewReader(data), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
