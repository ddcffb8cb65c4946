package trace

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// openAppend reopens an existing trace to append to it, under the same
// exclusive lock as Create. The file must pass every read-time rule (a trace
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
		_ = unlockFile(f)
		f.Close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("trace: reopen %q: %w", path, err))
	}
	w := &Writer{f: f, path: path, dir: filepath.Dir(path), now: time.Now, opt: Options{MaxLineBytes: defaultMaxLineBytes}}
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
