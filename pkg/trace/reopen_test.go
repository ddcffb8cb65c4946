package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenAppendResumesSeq(t *testing.T) {
	w, p := mustCreate(t, Header{AppID: "a"})
	for _, turn := range []int{0, 1, 1} {
		if err := w.Append(Event{Turn: turn, Kind: "k"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := openAppend(p, Header{}); err == nil || !strings.Contains(err.Error(), "locked by another writer") {
		t.Fatalf("reopen while locked: %v", err)
	}
	w.Close()
	w2, err := openAppend(p, Header{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Append(Event{Turn: 1, Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	if err := w2.Append(Event{Turn: 0, Kind: "k"}); err == nil {
		t.Fatal("turn went backwards after reopen")
	}
	w2.Close()
	h, evs := readAll(t, p)
	if h.AppID != "a" || len(evs) != 4 || evs[3].Turn != 1 || evs[3].Seq != 2 {
		t.Fatalf("%+v %+v", h, evs)
	}
	// A corrupt trace is never extended.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	data, _ := os.ReadFile("testdata/corrupt/01_missing_trailing_newline.jsonl")
	os.WriteFile(bad, data, 0o644)
	if _, err := openAppend(bad, Header{}); err == nil || !strings.Contains(err.Error(), "missing trailing newline at EOF") {
		t.Fatalf("torn trace reopened: %v", err)
	}
	if after, _ := os.ReadFile(bad); string(after) != string(data) {
		t.Fatal("a rejected reopen changed the file")
	}
	// An empty file gets a header.
	empty := filepath.Join(t.TempDir(), "e.jsonl")
	os.WriteFile(empty, nil, 0o644)
	w3, err := openAppend(empty, Header{AppID: "e"})
	if err != nil {
		t.Fatal(err)
	}
	w3.Append(Event{Kind: "k"})
	w3.Close()
	if h, evs := readAll(t, empty); h.AppID != "e" || len(evs) != 1 {
		t.Fatalf("%+v %d", h, len(evs))
	}
}
