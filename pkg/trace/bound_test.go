package trace

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirBytes is what the trace's folder holds, the trace and every file
// beside it.
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		n += fi.Size()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkCut checks that the trace at p reads back, ends with the line
// saying it was cut, and that the writer refuses every later event.
func checkCut(t *testing.T, w *Writer, p string, bound int64) {
	t.Helper()
	if _, err := VerifyFile(p); err != nil {
		t.Fatalf("the cut trace does not verify: %v", err)
	}
	_, evs := readAll(t, p)
	last := evs[len(evs)-1]
	if last.Kind != TruncatedKind {
		t.Fatalf("the trace ends with %s, not %s", last.Kind, TruncatedKind)
	}
	var pl map[string]any
	if err := json.Unmarshal(last.Payload.(json.RawMessage), &pl); err != nil {
		t.Fatal(err)
	}
	if pl["bound_bytes"] != float64(bound) || !strings.Contains(pl["fix"].(string), "raise --flag") {
		t.Errorf("the %s line says %v", TruncatedKind, pl)
	}
	if got := dirBytes(t, filepath.Dir(p)); got > bound {
		t.Errorf("the trace's folder holds %d bytes, past its bound of %d", got, bound)
	}
	if err := w.Append(Event{Turn: last.Turn, Kind: "k"}); !isBound(err) {
		t.Errorf("an event after the cut: %v", err)
	}
}

// A trace stops at its bound, counting its lines, with a last line that
// says so, and the event refused names the bound and the fix.
func TestWriterBoundEndsTheTrace(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.jsonl")
	const bound = 64 << 10
	w, err := CreateWith(p, Header{}, Options{Sync: SyncNever, MaxBytes: bound, BoundFix: "raise --flag"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	value := strings.Repeat("v", 1000)
	var refused error
	for i := range 1000 {
		if refused = w.Append(Event{Turn: i, Kind: "world.update", Payload: map[string]any{"t": value}}); refused != nil {
			break
		}
	}
	if !isBound(refused) {
		t.Fatalf("1 MB of events under a 64 KiB bound: %v", refused)
	}
	for _, want := range []string{p, `the line of a "world.update" event of`, "past their bound of 64 KiB", "trace.truncated", "write smaller values", "raise --flag"} {
		if !strings.Contains(refused.Error(), want) {
			t.Errorf("error %q lacks %q", refused, want)
		}
	}
	checkCut(t, w, p, bound)
}

// Blob files beside the trace count too: a value stored apart from its
// line is refused before its file is written.
func TestWriterBoundCountsBlobs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.jsonl")
	const bound = 1 << 20
	w, err := CreateWith(p, Header{}, Options{Sync: SyncNever, MaxBytes: bound, BoundFix: "raise --flag"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var refused error
	for i := range 10 {
		big := strings.Repeat(string(rune('a'+i)), blobThreshold+1)
		if refused = w.Append(Event{Turn: 1, Kind: "world.update", Payload: map[string]any{"t": big}}); refused != nil {
			break
		}
	}
	if !isBound(refused) || !strings.Contains(refused.Error(), "the file agent-prompts/blob-") {
		t.Fatalf("10 blobs of 256 KiB under a 1 MiB bound: %v", refused)
	}
	checkCut(t, w, p, bound)
}

// A negative bound is none.
func TestWriterNoBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.jsonl")
	w, err := CreateWith(p, Header{}, Options{Sync: SyncNever, MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.written = DefaultMaxBytes // as if the default bound were reached
	if err := w.Append(Event{Turn: 1, Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() > 1000 {
		t.Fatal(fi, err)
	}
}

func isBound(err error) bool {
	_, ok := errors.AsType[*boundError](err)
	return ok
}
