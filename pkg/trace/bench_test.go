package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkTraceAppend measures Writer.Append on a real file under the
// default SyncDurable policy: these plain events are fsynced in batches
// (syncBatchEvents), so the figure is mostly encoding and write(2).
func BenchmarkTraceAppend(b *testing.B) {
	w, err := CreateWith(filepath.Join(b.TempDir(), "bench.jsonl"), Header{}, Options{})
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

// BenchmarkTraceStats computes the stats of the same trace.
func BenchmarkTraceStats(b *testing.B) {
	data := synthBytes(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := NewStats()
		if err := st.AddTrace(bytes.NewReader(data), "bench"); err != nil {
			b.Fatal(err)
		}
		st.Finish()
	}
}

// BenchmarkTraceLarge streams generated traces of 100,000 and (with
// KITSOKI_BENCH_LARGE=1) 1,000,000 events from disk through verify, stats,
// timeline and OTLP export, with the fast line decoder on and off
// (FastDecodeEnv), and reports the peak heap: it stays flat as the trace
// grows tenfold. The 1M case writes ~210 MB; run it with
// KITSOKI_BENCH_LARGE=1 go test -run '^$' -bench TraceLarge -benchtime 1x ./pkg/trace
func BenchmarkTraceLarge(b *testing.B) {
	sizes := []int{100_000}
	if os.Getenv("KITSOKI_BENCH_LARGE") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	for _, events := range sizes {
		p := filepath.Join(b.TempDir(), "large.jsonl")
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		synthTrace(b, bw, events/14)
		bw.Flush()
		f.Close()
		st, _ := os.Stat(p)
		for _, job := range []struct {
			name string
			run  func(r io.Reader) error
		}{
			{"verify", func(r io.Reader) error { _, err := Verify(r, p); return err }},
			{"stats", func(r io.Reader) error { s := NewStats(); err := s.AddTrace(r, p); s.Finish(); return err }},
			{"timeline", func(r io.Reader) error {
				tl := &Timeline{}
				return NewReader(r, ReadOptions{}).Each(func(ev *Event) { tl.Feed(ev) })
			}},
			{"otlp", func(r io.Reader) error { return ExportOTLP(r, p, io.Discard, OTLPOptions{}) }},
		} {
			for _, dec := range []struct{ name, env string }{{"fast", "1"}, {"json", "0"}} {
				b.Run(fmt.Sprintf("%s/%dk/%s", job.name, events/1000, dec.name), func(b *testing.B) {
					b.Setenv(FastDecodeEnv, dec.env)
					benchLargeJob(b, p, st.Size(), job.run)
				})
			}
		}
	}
}

// benchLargeJob runs one job of BenchmarkTraceLarge on the trace at p.
func benchLargeJob(b *testing.B, p string, size int64, run func(r io.Reader) error) {
	b.SetBytes(size)
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the heap while the job runs
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := run(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	close(stop)
	<-done
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
