package trace

// SyncPolicy says when a Writer fsyncs the trace.
type SyncPolicy int

const (
	// SyncDurable (the default) fsyncs before Append returns for agent
	// answers and turn ends, and the other events in batches and at Close.
	SyncDurable SyncPolicy = iota
	// SyncNever never fsyncs: for traces that are not durable records
	// (kitsoki test). Lines are still written whole, at once.
	SyncNever
)

// The batch bounds of SyncDurable.
const (
	syncBatchEvents = 1024
	syncBatchBytes  = 4 << 20
)

// Options configure a Writer (CreateWith).
type Options struct {
	Sync SyncPolicy
	// MaxLineBytes bounds every line written (0 = defaultMaxLineBytes);
	// larger values move to blob files, and an event that still does not
	// fit is refused.
	MaxLineBytes int
	// MaxBytes bounds the bytes written, the lines and the files beside
	// the trace (0 = DefaultMaxBytes, negative: no bound); the write that
	// would pass it is refused, a trace.truncated line ends the trace, and
	// every later Append fails (bound.go).
	MaxBytes int64
	// BoundFix is the caller's way past the bound (a flag), named in the
	// error and in the trace.truncated line.
	BoundFix string
}

// needSync decides, after a line of n bytes of kind was written, whether
// to fsync now; it updates the unsynced counters.
func (w *Writer) needSync(kind string, n int) bool {
	if w.opt.Sync == SyncNever {
		return false
	}
	w.unsyncedEvents++
	w.unsyncedBytes += n
	answerOrTurnEnd := kind == "agent.call.complete" || kind == "agent.call.error" || kind == "turn.end"
	return answerOrTurnEnd || w.unsyncedEvents >= syncBatchEvents || w.unsyncedBytes >= syncBatchBytes
}

func (w *Writer) synced() {
	w.unsyncedEvents, w.unsyncedBytes = 0, 0
	w.syncs++
}
