package trace

import (
	"errors"
	"fmt"
	"kitsoki/internal/filelock"
	"os"
)

// errTraceLocked is matched (errors.Is) by the error CreateWith returns when another
// writer holds the trace file.
var errTraceLocked = errors.New("trace file is locked by another writer")

// lockTrace takes the exclusive writer lock on f, the trace at path; on
// failure it closes f and says whether another writer holds the file.
func lockTrace(f *os.File, path string) error {
	held, err := filelock.Try(f)
	if err == nil {
		return nil
	}
	f.Close()
	if held {
		return fmt.Errorf("trace: open %q: %w: %w", path, errTraceLocked, err)
	}
	return fmt.Errorf("trace: lock %q: %w", path, err)
}
