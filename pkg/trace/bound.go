package trace

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

	"kitsoki/internal/human"
)

// DefaultMaxBytes bounds what one Writer writes, its lines and the files
// beside the trace (sidecars, blobs, transcripts), unless Options.MaxBytes
// says otherwise: a story run in CI echoes its world and views every turn,
// so a run that keeps growing a value fills the disk long before it ends.
const DefaultMaxBytes int64 = 1 << 30

// TruncatedKind is the kind of the last line of a trace cut at its bound;
// readers take it as any other event (unknown kinds are no-ops upstream).
const TruncatedKind = "trace.truncated"

// truncatedReserve is kept under the bound for the line saying so.
const truncatedReserve = 4 << 10

// boundError is the refusal of the write that would pass the bound.
type boundError struct {
	bound, written   int64
	what             string
	refused          int64
	fix, optionalFix string
	claimed          atomic.Bool
}

// claim reports whether this is the first time the error is claimed: the
// Append that passed the bound names its event; later ones fail as after
// any broken write.
func (e *boundError) claim() bool { return !e.claimed.Swap(true) }

func (e *boundError) Error() string {
	return fmt.Sprintf("%s of %d bytes would take the trace and the files beside it past their bound of %s (%d bytes written), so the trace ends with a %s line: %s",
		e.what, e.refused, human.Size(e.bound), e.written, TruncatedKind, e.fixText())
}

func (e *boundError) fixText() string {
	if e.optionalFix != "" {
		return e.fix + "; or " + e.optionalFix
	}
	return e.fix
}

// boundFix is what a story can change when its trace passes the bound.
const boundFix = "write smaller values or fewer events (every turn traces the world values and views it changes, so a value grown each turn is written again each turn)"

// reserve counts n more bytes of what (a file beside the trace) against
// the bound before they are written.
func (w *Writer) reserve(what string, n int64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken != nil {
		return fmt.Errorf("an earlier write failed, the trace ends there: %w", w.broken)
	}
	return w.reserveLocked(what, n)
}

// reserveLocked is reserve with w.mu held. Past the bound it writes the
// trace.truncated line (from the room kept for it) and breaks the writer,
// so every later Append fails too.
func (w *Writer) reserveLocked(what string, n int64) error {
	if w.bound < 0 || w.written+n <= w.bound-truncatedReserve {
		w.written += n
		return nil
	}
	e := &boundError{bound: w.bound, written: w.written, what: what, refused: n, fix: boundFix, optionalFix: w.opt.BoundFix}
	w.broken = e
	payload, err := json.Marshal(map[string]any{
		"bound_bytes": w.bound, "written_bytes": w.written, "refused": what, "refused_bytes": n,
		"fix": e.fixText(),
	})
	if err != nil {
		return e
	}
	ev := Event{Turn: w.lastTurn, Kind: TruncatedKind, TS: w.now()}
	if w.started {
		ev.Seq = w.nextSeq
	}
	line, err := encodeWire(&ev, payload)
	if err != nil || len(line) > truncatedReserve {
		return e
	}
	if _, err := w.f.Write(line); err != nil {
		return e
	}
	w.written += int64(len(line))
	if w.opt.Sync != SyncNever {
		_ = syncData(w.f)
	}
	w.started, w.nextSeq = true, ev.Seq+1
	return e
}
