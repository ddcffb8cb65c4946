package trace

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"kitsoki/internal/filelock"
	"kitsoki/internal/human"
)

// Writer appends events to one trace file, holding an exclusive lock on
// it. Each Append writes one whole line and fsyncs as its SyncPolicy says,
// so a crash leaves whole lines and at most one torn last line. It is safe
// for concurrent use.
type Writer struct {
	mu       sync.Mutex
	f        *os.File
	path     string
	dir      string
	started  bool // at least one event written
	lastTurn int
	nextSeq  int
	broken   error
	closed   bool
	now      func() time.Time
	opt      Options
	// written counts the bytes of the lines and of the files beside the
	// trace; past bound (negative: none) the trace ends (bound.go).
	written, bound int64

	unsyncedEvents, unsyncedBytes int
	syncs                         int // fsyncs after the header (tests)
}

// errTraceLink refuses a trace path that is a symbolic link, which a
// repository could plant to send the trace anywhere.
var errTraceLink = errors.New("is a symbolic link; a trace is written only to a file itself, never through a link: remove the link, or name another path")

// errTraceSpecial is a named pipe, device or socket where the trace goes:
// a trace is a file kitsoki reads back and truncates, which none of them is.
var errTraceSpecial = errors.New("is not a regular file (a named pipe, device or socket); a trace is written only to a regular file: remove it, or name another path")

// isLinkRefusal reports whether err is the open's O_NOFOLLOW refusal of a
// link that appeared at path after the check.
func isLinkRefusal(err error, path string) bool {
	if err == nil {
		return false
	}
	st, lerr := os.Lstat(path)
	return lerr == nil && st.Mode()&fs.ModeSymlink != 0
}

// fileMode is a new trace's mode: owner only, since a trace can hold
// secrets a command printed.
const fileMode = 0o600

// CreateWith creates (or truncates) the trace at path and its directories,
// locks it and writes the session.header, under opt (the fsync policy, the
// line bound). Only an empty file or a trace is truncated; any other file,
// a symbolic link or a special file is refused and left untouched, as is a
// file another writer holds (errTraceLocked).
func CreateWith(path string, h Header, opt Options) (*Writer, error) {
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = defaultMaxLineBytes
	}
	if path == "" {
		return nil, errors.New("trace: create: empty path; pass a file path such as .kitsoki/sessions/run.jsonl")
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("trace: create %q: is a directory; name a trace file such as %s", path, filepath.Join(path, "run.jsonl"))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("trace: create %q: cannot create its directory: %w", path, err)
	}
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("trace: create %q: %w", path, errTraceLink)
	} else if err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("trace: create %q: %w", path, errTraceSpecial)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow|noBlock, fileMode)
	if isLinkRefusal(err, path) {
		return nil, fmt.Errorf("trace: create %q: %w", path, errTraceLink)
	}
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == path {
			return nil, fmt.Errorf("trace: create %q: %w", path, pe.Err)
		}
		return nil, fmt.Errorf("trace: create %q: %w", path, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close() // a pipe or device put there after the check
		return nil, fmt.Errorf("trace: create %q: %w", path, errTraceSpecial)
	}
	if err := lockTrace(f, path); err != nil {
		return nil, err
	}
	w := &Writer{f: f, path: path, dir: dir, now: time.Now, opt: opt, bound: cmp.Or(opt.MaxBytes, DefaultMaxBytes)}
	fail := func(err error) (*Writer, error) {
		_ = filelock.Unlock(f)
		f.Close()
		return nil, fmt.Errorf("trace: create %q: %w", path, err)
	}
	if !traceOrEmpty(f) {
		return fail(errors.New("the file exists and is not a kitsoki trace (line 1 is no session.header); refusing to overwrite it: choose another trace path, or delete the file first"))
	}
	if err := f.Truncate(0); err != nil {
		return fail(err)
	}
	if h.WrittenAt.IsZero() {
		h.WrittenAt = w.now()
	}
	for _, f := range [...]struct{ name, v string }{{"header app_id", h.AppID}, {"header story", h.Story}, {"header generator", h.Generator}} {
		if err := checkField(f.name, f.v); err != nil {
			return fail(err)
		}
	}
	line, err := encodeHeader(h)
	if err != nil {
		return fail(err)
	}
	if _, err := f.Write(line); err != nil {
		return fail(err)
	}
	w.written = int64(len(line))
	if opt.Sync != SyncNever {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
		syncDir(dir)
	}
	return w, nil
}

// syncDir makes a newly created file's directory entry durable; errors are
// ignored (some file systems and platforms cannot fsync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Append checks ev against the write-time rules (rules.go), assigns its
// seq and writes it as one line; a rejected event writes nothing. A long
// prompt or response of an agent event moves to a sidecar file, and an
// agent call's transcript to transcripts/<call_id>.jsonl (transcript.go).
func (w *Writer) Append(ev Event) error {
	err := w.append(ev)
	if be, ok := errors.AsType[*boundError](err); ok && be.claim() {
		// The event that passed the bound: named with its place, once,
		// whichever file of it was refused.
		state := ""
		if ev.StatePath != "" {
			state = fmt.Sprintf(", state %q", human.Clip(ev.StatePath, 128))
		}
		return fmt.Errorf("trace: append %s event (turn %d%s) to %q: %w", displayKind(human.Clip(ev.Kind, 128)), ev.Turn, state, w.path, be)
	}
	return err
}

func (w *Writer) append(ev Event) error {
	call := ev.CallID != "" && (ev.Kind == "agent.call.complete" || ev.Kind == "agent.call.error")
	keep := ""
	var asWritten []json.RawMessage
	if call {
		keep = "transcript"
		asWritten = rawEvents(ev.Payload)
	}
	// Big strings leave the value before it is marshalled (lift.go).
	var lifts []lifted
	ev.Payload, lifts = liftStrings(ev.Payload, keep)
	payload, err := w.check(&ev)
	if err != nil {
		return err
	}
	if call {
		// Before the blob rule: a transcript's events are kept as the
		// backend wrote them.
		if payload, err = w.offloadTranscript(payload, ev.CallID, asWritten); err != nil {
			return w.appendErrorf(ev.Kind, "%w", err)
		}
	}
	if len(payload) > blobThreshold || len(lifts) > 0 {
		// Large values move to content-named blob files first.
		if err = w.writeLifted(lifts); err == nil {
			payload, err = w.spill(payload)
		}
		if err != nil {
			return w.appendErrorf(ev.Kind, "%w", err)
		}
	}
	if ev.CallID != "" {
		switch ev.Kind {
		case "agent.call.start":
			payload, err = w.offload(payload, ev.CallID, "prompt", "prompt_file", ".txt", true)
		case "agent.call.complete":
			payload, err = w.offload(payload, ev.CallID, "response", "response_file", "-response.json", false)
		}
		if err != nil {
			return w.appendErrorf(ev.Kind, "%w", err)
		}
	}
	return w.write(ev, payload)
}

func (w *Writer) check(ev *Event) (json.RawMessage, error) {
	wrap := func(err error) error {
		return fmt.Errorf("trace: append %s event (turn %d) to %q: %w", displayKind(ev.Kind), ev.Turn, w.path, err)
	}
	if ev.Kind == "" {
		return nil, wrap(errors.New("kind is empty; every event needs a kind such as machine.transition"))
	}
	if ev.Kind == headerKind {
		return nil, wrap(errors.New("kind session.header is reserved for line 1 of the trace"))
	}
	for _, f := range [...]struct{ name, v string }{
		{"kind", ev.Kind}, {"state_path", ev.StatePath}, {"call_id", ev.CallID}, {"episode_id", ev.EpisodeID},
	} {
		if err := checkField(f.name, f.v); err != nil {
			return nil, wrap(err)
		}
	}
	payload, err := preparePayload(ev.Payload)
	if err != nil {
		return nil, wrap(err)
	}
	return payload, nil
}

// appendErrorf is the error of an Append of an event of kind.
func (w *Writer) appendErrorf(kind, format string, a ...any) error {
	return fmt.Errorf("trace: append %q event to %q: "+format, append([]any{kind, w.path}, a...)...)
}

func displayKind(k string) string {
	if k == "" {
		return "(no kind)"
	}
	return fmt.Sprintf("%q", k)
}

func (w *Writer) write(ev Event, payload json.RawMessage) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.appendErrorf(ev.Kind, "the writer is closed")
	}
	if w.broken != nil {
		return w.appendErrorf(ev.Kind, "an earlier write failed, the trace ends there: %w", w.broken)
	}
	if ev.Turn < 0 {
		return w.appendErrorf(ev.Kind, "turn %d is negative; turns start at 0 (the reader rejects the file)", ev.Turn)
	}
	if w.started && ev.Turn < w.lastTurn {
		return w.appendErrorf(ev.Kind, "turn %d comes after turn %d; turns never go backwards in a trace (the reader rejects the file)", ev.Turn, w.lastTurn)
	}
	seq := 0
	if w.started && ev.Turn == w.lastTurn {
		seq = w.nextSeq
	}
	ev.Seq = seq
	if ev.TS.IsZero() {
		ev.TS = w.now()
	}
	line, err := encodeWire(&ev, payload)
	if err != nil {
		return fmt.Errorf("trace: append to %q: %w", w.path, err)
	}
	if len(line) > w.opt.MaxLineBytes {
		// Large values leave the line for blob files (stored once each);
		// a line that still does not fit is refused, never written.
		if payload, err = w.spill(payload); err != nil {
			return w.appendErrorf(ev.Kind, "%w", err)
		}
		if line, err = encodeWire(&ev, payload); err != nil {
			return fmt.Errorf("trace: append to %q: %w", w.path, err)
		}
		if len(line) > w.opt.MaxLineBytes {
			return w.appendErrorf(ev.Kind, "the event is %d bytes even with its large values moved to blob files, over the %d-byte line limit of the reader; nothing was written", len(line), w.opt.MaxLineBytes)
		}
	}
	if i := bytes.IndexAny(line[:len(line)-1], "\r\n\x00"); i >= 0 {
		// encoding/json escapes control characters, so this cannot happen;
		// it guards the file format against a future change of encoder.
		return w.appendErrorf(ev.Kind, "encoded line holds a control byte at offset %d", i)
	}
	if err := w.reserveLocked("the line of a "+displayKind(human.Clip(ev.Kind, 128))+" event", int64(len(line))); err != nil {
		return w.appendErrorf(ev.Kind, "%w", err)
	}
	if _, err := w.f.Write(line); err != nil {
		w.broken = err
		return w.appendErrorf(ev.Kind, "write: %w", err)
	}
	if w.needSync(ev.Kind, len(line)) {
		if err := syncData(w.f); err != nil {
			w.broken = err
			return w.appendErrorf(ev.Kind, "fsync: %w", err)
		}
		w.synced()
	}
	w.started = true
	w.lastTurn = ev.Turn
	w.nextSeq = seq + 1
	return nil
}

// Close releases the lock and closes the file. It is safe to call twice.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	var serr error
	if w.opt.Sync != SyncNever {
		serr = w.f.Sync()
	}
	_ = filelock.Unlock(w.f)
	cerr := w.f.Close()
	if serr != nil && w.broken == nil {
		return fmt.Errorf("trace: close %q: fsync: %w", w.path, serr)
	}
	if cerr != nil {
		return fmt.Errorf("trace: close %q: %w", w.path, cerr)
	}
	return nil
}

// headerPrefix is how every header line starts (kind is the first key).
const headerPrefix = `{"kind":"session.header"`

// traceOrEmpty reports whether f is empty or starts like a trace.
func traceOrEmpty(f *os.File) bool {
	buf := make([]byte, 64<<10)
	n, _ := f.ReadAt(buf, 0)
	if n == 0 {
		return true
	}
	line, _, _ := bytes.Cut(buf[:n], []byte{'\n'})
	if bytes.HasPrefix(line, []byte(headerPrefix)) || bytes.HasPrefix([]byte(headerPrefix), line) {
		return true
	}
	return probeKind(line) == headerKind
}
