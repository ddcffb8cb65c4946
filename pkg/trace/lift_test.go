package trace

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// Lifting big strings out of a payload copies the containers on the way
// and never changes the caller's value (the engine's world holds it).
func TestLiftKeepsTheCallersValue(t *testing.T) {
	big := spillText("kept ", blobThreshold+1)
	inner := map[string]any{"text": big}
	list := []any{big, "small"}
	resp := &liftResponse{Submission: big}
	payload := map[string]any{"set": inner, "list": list, "resp": resp}
	lifted, ls := liftStrings(payload, "")
	if len(ls) != 1 {
		t.Fatalf("lifted %d strings, want the one string once", len(ls))
	}
	if inner["text"] != big || list[0] != big || resp.Submission != big || payload["set"].(map[string]any)["text"] != big {
		t.Fatal("the caller's value changed")
	}
	got := lifted.(map[string]any)
	if !isBlobRef(got["set"].(map[string]any)["text"]) || !isBlobRef(got["list"].([]any)[0]) || !isBlobRef(got["resp"].(*liftResponse).Submission) {
		t.Fatalf("not lifted: %#v", got)
	}
	if got["list"].([]any)[1] != "small" {
		t.Fatal("a small string moved")
	}
	if same, ls := liftStrings(map[string]any{"small": "x"}, ""); ls != nil || !reflect.DeepEqual(same, map[string]any{"small": "x"}) {
		t.Fatal("a payload without a big string changed")
	}
}

// A value that holds itself (twice per level, so walking every path
// would never end) stops the walk; encoding/json refuses the event.
func TestLiftStopsAtACycle(t *testing.T) {
	m := map[string]any{"big": spillText("cycle ", blobThreshold+1)}
	m["a"], m["b"] = m, []any{m, m}
	w, err := CreateWith(filepath.Join(t.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(Event{Kind: "world.update", Payload: m}); err == nil || !strings.Contains(err.Error(), "encountered a cycle") {
		t.Fatalf("err = %v, want the cycle refused", err)
	}
}

// Appending the events that carry a 4 MiB answer (16 times blobThreshold)
// allocates a small part of it: the answer is hashed and written to its
// blob from where it lies, never marshalled (that took some six times its
// size per copy).
func TestAppendBigAnswerAllocates(t *testing.T) {
	answer := spillText("big answer ", 16*blobThreshold)
	w, err := CreateWith(filepath.Join(t.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	events := []Event{
		{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: &liftPayload{Verb: "ask", Response: &liftResponse{Submission: map[string]any{"text": answer}}}},
		{Turn: 1, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"out": map[string]any{"text": answer}}}},
		{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"data": map[string]any{"ok": true, "stdout": answer, "submission": map[string]any{"text": answer}}}},
	}
	spent := allocs.During(func() {
		for _, ev := range events {
			if err = w.Append(ev); err != nil {
				return
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-byte answer in 3 events: allocated %d bytes", len(answer), spent)
	if spent > uint64(len(answer))/4 {
		t.Errorf("appending a %d-byte answer allocated %d bytes, over a quarter of it", len(answer), spent)
	}
}

// BenchmarkAppendWideValue appends an event of 20,000 small values (a big
// world's snapshot): the cost of walking a payload for big strings that
// holds none.
func BenchmarkAppendWideValue(b *testing.B) {
	set := map[string]any{}
	for i := range 20_000 {
		set["k"+strconv.Itoa(i)] = []any{"value " + strconv.Itoa(i), i, map[string]any{"n": true}}
	}
	w, err := CreateWith(filepath.Join(b.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := w.Append(Event{Turn: i, Kind: "world.update", Payload: map[string]any{"set": set}}); err != nil {
			b.Fatal(err)
		}
	}
}
