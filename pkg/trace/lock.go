package trace

import (
	"errors"
	"fmt"
	"os"
)

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

// lockTrace takes the exclusive writer lock on f, the trace at path; on
// failure it closes f and says whether another writer holds the file.
func lockTrace(f *os.File, path string) error {
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errTraceLocked) {
			return fmt.Errorf("trace: open %q: trace file is locked by another writer: %w", path, err)
		}
		return fmt.Errorf("trace: lock %q: %w", path, err)
	}
	return nil
}
