package closeonce

import "sync"

// Mark sets *closed while holding mu (for a sync.RWMutex, the write lock)
// and reports whether this call set it, that is, whether it is the first
// Close. On that call only, take (when not nil) runs under mu too, to
// detach what the caller then releases outside the lock; later calls
// change nothing and return false.
func Mark(mu sync.Locker, closed *bool, take func()) bool {
	mu.Lock()
	defer mu.Unlock()
	if *closed {
		return false
	}
	*closed = true
	if take != nil {
		take()
	}
	return true
}
