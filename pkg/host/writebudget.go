package host

import (
	"fmt"
	"sync"

	"kitsoki/internal/human"
)

// DefaultSandboxWriteBudget is how many bytes the file-writing built-ins
// (host.append_to_file, host.artifacts_dir) may add to files across one
// registry under [SandboxOptions]: kitsoki test builds one registry per
// fixture, so an untrusted fixture cannot fill the temporary disk.
const DefaultSandboxWriteBudget int64 = 64 << 20

// writeBudget counts the bytes the file-writing built-ins of one registry
// add to files; a nil budget is unlimited. Safe for concurrent use.
type writeBudget struct {
	limit int64
	mu    sync.Mutex
	used  int64
}

func newWriteBudget(limit int64) *writeBudget {
	if limit <= 0 {
		return nil
	}
	return &writeBudget{limit: limit}
}

// take charges the growth of file from oldSize to newSize bytes (a write
// that shrinks a file charges nothing) and refuses, naming the handler,
// the file, the budget and the fix, a write that would pass the budget.
func (b *writeBudget) take(handler, file string, oldSize, newSize int64) error {
	if b == nil || newSize <= oldSize {
		return nil
	}
	grow := newSize - oldSize
	b.mu.Lock()
	defer b.mu.Unlock()
	if grow > b.limit-b.used {
		return fmt.Errorf("%s: writing %q would add %d bytes, past the budget of %s for file writes that kitsoki test --sandbox gives a fixture (%d bytes already written); write less (shorter bodies, fewer calls) or run this fixture without --sandbox on trusted code",
			handler, file, grow, human.Size(b.limit), b.used)
	}
	b.used += grow
	return nil
}

// refund gives back what take charged for a write that then failed.
func (b *writeBudget) refund(oldSize, newSize int64) {
	if b == nil || newSize <= oldSize {
		return
	}
	b.mu.Lock()
	b.used -= newSize - oldSize
	b.mu.Unlock()
}
