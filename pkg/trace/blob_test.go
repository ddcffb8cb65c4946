package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A value as large as the reader's line limit (the agent transports' 64
// MiB answer cap) goes through the writer and comes back identical: no
// line the reader refuses is ever written, and the value is stored once
// however many events carry it.
func TestLargeAnswerRoundTripAtTheCap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
	}{{"1MiB line limit", 1 << 20}, {"default 64MiB line limit", defaultMaxLineBytes}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit == defaultMaxLineBytes && (testing.Short() || raceEnabled) {
				t.Skip("64 MiB round trip: skipped in -short and under the race detector (minutes there); the 1 MiB case runs the same code")
			}
			// An answer at the cap, with characters JSON must escape so the
			// encoded line is larger than the value.
			answer := strings.Repeat(`a"\`, tc.limit/3-16) + "é"
			path := filepath.Join(t.TempDir(), "run.jsonl")
			w, err := CreateWith(path, Header{}, Options{MaxLineBytes: tc.limit, Sync: SyncNever})
			if err != nil {
				t.Fatal(err)
			}
			events := []Event{
				{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: map[string]any{"response": map[string]any{"submission": answer}}},
				{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"result": answer, "meta": map[string]any{"n": 1}}},
				{Turn: 1, Kind: "world.update", Payload: map[string]any{"key": "out", "before": nil, "after": answer}},
				{Turn: 1, Kind: "machine.say", Payload: map[string]any{"text": answer}},
				{Turn: 1, Kind: "turn.end", Payload: map[string]any{"list": []any{answer, answer}}},
			}
			for _, ev := range events {
				if err := w.Append(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := VerifyFile(path); err != nil {
				t.Fatalf("the reader refuses what the writer wrote: %v", err)
			}
			blobs, _ := filepath.Glob(filepath.Join(filepath.Dir(path), promptsDir, "blob-*"))
			if len(blobs) != 1 {
				t.Fatalf("the answer is stored %d times as a blob, want once: %v", len(blobs), blobs)
			}
			rd, err := OpenFile(path, ReadOptions{MaxLineBytes: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			for i := 1; i < len(events); i++ {
				if i == 1 {
					ev, err := rd.Next() // agent.call.complete
					if err != nil {
						t.Fatal(err)
					}
					var p struct {
						Response struct {
							Submission string `json:"submission"`
						} `json:"response"`
					}
					if err := json.Unmarshal(ev.Payload.(json.RawMessage), &p); err != nil || p.Response.Submission != answer {
						t.Fatalf("agent.call.complete response not round-tripped (%v, %d bytes)", err, len(p.Response.Submission))
					}
				}
				ev, err := rd.Next()
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal(ev.Payload.(json.RawMessage), &got); err != nil {
					t.Fatal(err)
				}
				for k, v := range got {
					switch x := v.(type) {
					case string:
						if k != "key" && x != answer {
							t.Fatalf("%s.%s: %d bytes back, want %d", ev.Kind, k, len(x), len(answer))
						}
					case []any:
						if len(x) != 2 || x[0] != answer || x[1] != answer {
							t.Fatalf("%s.%s: list not round-tripped", ev.Kind, k)
						}
					}
				}
			}
		})
	}
}

// An event that cannot fit even with its values moved out is refused and
// nothing is written.
func TestUnfittableEventRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w, err := CreateWith(path, Header{}, Options{MaxLineBytes: 64 << 10, Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for i := range 20000 {
		m[fmt.Sprintf("key-%08d", i)] = 1
	}
	before, _ := os.Stat(path)
	if err := w.Append(Event{Turn: 1, Kind: "world.update", Payload: m}); err == nil || !strings.Contains(err.Error(), "line limit") {
		t.Fatalf("got %v", err)
	}
	after, _ := os.Stat(path)
	if before.Size() != after.Size() {
		t.Fatal("a refused event wrote bytes")
	}
	w.Close()
}

// A blob that was cut or removed makes the reader report the trace corrupt
// at the line that refers to it.
func TestMissingBlobIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w, err := CreateWith(path, Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Event{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"result": strings.Repeat("x", blobThreshold+1)}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	blobs, _ := filepath.Glob(filepath.Join(filepath.Dir(path), promptsDir, "blob-*"))
	if len(blobs) != 1 {
		t.Fatalf("blobs: %v", blobs)
	}
	if err := os.WriteFile(blobs[0], []byte("short"), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := OpenFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	_, err = rd.Next()
	if ce, ok := errors.AsType[*CorruptError](err); !ok || ce.Rule != RuleBlob || ce.Line != 2 {
		t.Fatalf("got %v", err)
	}
	// verify checks blobs too (it skips payloads otherwise).
	if _, err := VerifyFile(path); err == nil || !strings.Contains(err.Error(), "changed or cut") {
		t.Fatalf("verify: %v", err)
	}
	os.Remove(blobs[0])
	if _, err := VerifyFile(path); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("verify with the blob gone: %v", err)
	}
}
