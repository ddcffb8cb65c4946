package trace

// errLocked wraps the system error of a lock held by another writer.
type errLocked struct{ err error }

func (e errLocked) Error() string { return e.err.Error() }
func (e errLocked) Unwrap() error { return e.err }

// errTraceLocked is matched (errors.Is) by the error Create returns when another
// writer holds the trace file.
var errTraceLocked = errLockedSentinel{}

type errLockedSentinel struct{}

func (errLockedSentinel) Error() string { return "trace file is locked by another writer" }

func (e errLocked) Is(target error) bool { return target == errTraceLocked }
