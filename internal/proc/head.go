package proc

import (
	"bytes"
	"sync"
)

// Head keeps the first max bytes written to it (a child's output read
// whole) and drops the rest, remembering that it did. It is safe for
// concurrent writers (stdout and stderr sharing one Head).
type Head struct {
	mu        sync.Mutex
	max       int
	buf       bytes.Buffer
	truncated bool
}

// NewHead returns a Head that keeps n bytes.
func NewHead(n int) *Head { return &Head{max: n} }

// Write keeps what still fits of p; it never fails.
func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	if room := h.max - h.buf.Len(); room < n {
		h.truncated = true
		p = p[:max(room, 0)]
	}
	h.buf.Write(p)
	return n, nil
}

// String returns the bytes kept.
func (h *Head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.buf.String()
}

// Truncated reports whether bytes were dropped.
func (h *Head) Truncated() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.truncated
}
