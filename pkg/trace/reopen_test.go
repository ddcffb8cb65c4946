package trace

import (
	"fmt"
	"io"
	"kitsoki/internal/filelock"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if _, err := openAppend(bad, Header{}); !isCorrupt(err, RuleTrailingNewline) {
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

// openAppend reopens an existing trace to append to it, under the same
// exclusive lock as CreateWith. The file must pass every read-time rule (a trace
// the reader rejects is never extended); the seq counter resumes after the
// last event, and turns keep going forward from the last one. An empty (0
// byte) file is treated as new and gets a header h.
func openAppend(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("trace: reopen %q: %w", path, err)
	}
	if err := lockTrace(f, path); err != nil {
		return nil, err
	}
	fail := func(err error) (*Writer, error) {
		_ = filelock.Unlock(f)
		f.Close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("trace: reopen %q: %w", path, err))
	}
	w := &Writer{f: f, path: path, dir: filepath.Dir(path), now: time.Now, opt: Options{MaxLineBytes: defaultMaxLineBytes}, bound: DefaultMaxBytes}
	if st.Size() == 0 {
		if h.WrittenAt.IsZero() {
			h.WrittenAt = w.now()
		}
		line, err := encodeHeader(h)
		if err != nil {
			return fail(err)
		}
		if _, err := f.Write(line); err != nil {
			return fail(fmt.Errorf("trace: reopen %q: %w", path, err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("trace: reopen %q: fsync: %w", path, err))
		}
		return w, nil
	}
	if err := precheckFile(path); err != nil {
		return fail(fmt.Errorf("trace: reopen %q: the trace is not valid, so it is not extended: %w", path, err))
	}
	rd := NewReader(f, ReadOptions{Name: path, SkipPayload: true})
	if _, err := rd.Header(); err != nil {
		return fail(fmt.Errorf("trace: reopen %q: the trace is not valid, so it is not extended: %w", path, err))
	}
	if err := rd.Each(func(ev *Event) { w.started, w.lastTurn, w.nextSeq = true, ev.Turn, ev.Seq+1 }); err != nil {
		return fail(fmt.Errorf("trace: reopen %q: the trace is not valid, so it is not extended: %w", path, err))
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return fail(fmt.Errorf("trace: reopen %q: %w", path, err))
	}
	return w, nil
}
