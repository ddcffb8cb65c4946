package storytest

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer safe for one writer and one reader
// goroutine: the output of a process or a server a test reads while it
// runs.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
