package flowtest

import (
	"fmt"
	"strings"
	"testing"
)

// scanLookup is Lookup as a scan of every entry, once as written and once
// folded: the order the index must keep.
func scanLookup(r *Recording, state, input string) (int, bool) {
	for _, f := range []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.ToLower(strings.TrimSpace(s)) },
	} {
		for i, e := range r.Entries {
			if f(e.State) == f(state) && f(e.Input) == f(input) {
				return i, true
			}
		}
	}
	return 0, false
}

// The index answers as the scan does: an exact entry wins over an earlier
// folded one, the first of equal entries wins, a clarification or a miss
// refuses.
func TestRecordingLookupKeepsScanOrder(t *testing.T) {
	r := &Recording{Path: "r.yaml", Entries: []RecordingEntry{
		{State: "a", Input: "go", Intent: "first"},
		{State: "a", Input: "Go", Intent: "exact"},
		{State: "a", Input: "go", Intent: "second"},
		{State: "A ", Input: " HM", Clarify: true},
		{State: "a", Input: "hm", Intent: "after-clarify"},
		{State: "b", Input: "x", Intent: "b"},
	}}
	for _, q := range [][2]string{
		{"a", "go"}, {"a", "Go"}, {"a", "GO"}, {" a", "go "}, {"a", "hm"}, {"a", "HM"},
		{"A ", " HM"}, {"b", "X"}, {"b", "y"}, {"c", "go"},
	} {
		want, found := scanLookup(r, q[0], q[1])
		got, err := r.Lookup(q[0], q[1])
		switch {
		case !found:
			if err == nil || !strings.Contains(err.Error(), "recording miss") {
				t.Errorf("%q: want a miss, got %v, %v", q, got, err)
			}
		case r.Entries[want].Clarify:
			if err == nil || !strings.Contains(err.Error(), "clarification") {
				t.Errorf("%q: want a clarification, got %v, %v", q, got, err)
			}
		case err != nil || got != &r.Entries[want]:
			t.Errorf("%q: want entry %d (%s), got %v, %v", q, want, r.Entries[want].Intent, got, err)
		}
	}
}

// largeRecording has n entries in one state, each input with capitals so
// that folding it builds a new string.
func largeRecording(n int) *Recording {
	r := &Recording{Path: "r.yaml", Entries: make([]RecordingEntry, n)}
	for i := range r.Entries {
		r.Entries[i] = RecordingEntry{State: "Lobby", Input: fmt.Sprintf("Say %d", i), Intent: "ping"}
	}
	return r
}

// A lookup reads an index, not every entry: a folded lookup on a large
// recording allocates what folding its own query does (a scan folded
// every entry on every input turn).
func TestRecordingLookupIsIndexed(t *testing.T) {
	r := largeRecording(10_000)
	if _, err := r.Lookup("lobby", " say 9999 "); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := r.Lookup("lobby", " SAY 9999 "); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Fatalf("a folded lookup on 10,000 entries allocates %v times; it should read the index", allocs)
	}
}

// BenchmarkRecordingLookup is one folded lookup of the last entry of a
// 50,000-entry recording (a fixture's input turn), the index built.
func BenchmarkRecordingLookup(b *testing.B) {
	r := largeRecording(50_000)
	if _, err := r.Lookup("lobby", "say 0"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Lookup("lobby", " SAY 49999 "); err != nil {
			b.Fatal(err)
		}
	}
}
