package trace

import (
	"path/filepath"
	"testing"
)

// SyncDurable fsyncs every agent answer and every turn end before Append
// returns and batches the rest; SyncNever never fsyncs.
func TestSyncPolicy(t *testing.T) {
	kinds := []string{"turn.start", "machine.transition", "world.update", "agent.call.start", "agent.call.complete",
		"harness.returned", "agent.call.error", "machine.say", "turn.end"}
	for _, tc := range []struct {
		policy SyncPolicy
		// wantAfter[i]: the fsync count after kinds[i] was appended
		wantAfter []int
	}{
		{SyncDurable, []int{0, 0, 0, 0, 1, 1, 2, 2, 3}},
		{SyncNever, []int{0, 0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		w, err := CreateWith(filepath.Join(t.TempDir(), "t.jsonl"), Header{}, Options{Sync: tc.policy})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range kinds {
			if err := w.Append(Event{Turn: 1, Kind: k, CallID: "c1"}); err != nil {
				t.Fatal(err)
			}
			if w.syncs != tc.wantAfter[i] {
				t.Errorf("policy %d: after %s, %d fsyncs, want %d", tc.policy, k, w.syncs, tc.wantAfter[i])
			}
		}
		w.Close()
		if _, err := VerifyFile(w.path); err != nil {
			t.Fatal(err)
		}
	}
	// The batch bound: a long turn without durable events is still fsynced.
	w, err := CreateWith(filepath.Join(t.TempDir(), "t.jsonl"), Header{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for range syncBatchEvents {
		if err := w.Append(Event{Turn: 1, Kind: "machine.transition"}); err != nil {
			t.Fatal(err)
		}
	}
	if w.syncs != 1 {
		t.Fatalf("after %d plain events: %d fsyncs, want 1", syncBatchEvents, w.syncs)
	}
}
