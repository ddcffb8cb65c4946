package proc

import "sync"

// Head keeps the first max bytes written to it (a child's output read
// whole) and drops the rest, remembering that it did. It is safe for
// concurrent writers (stdout and stderr sharing one Head).
type Head struct {
	mu        sync.Mutex
	max       int
	buf       []byte
	truncated bool
}

// NewHead returns a Head that keeps n bytes.
func NewHead(n int) *Head { return &Head{max: n} }

// Write keeps what still fits of p; it never fails.
func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	if room := h.max - len(h.buf); room < n {
		h.truncated = true
		p = p[:max(room, 0)]
	}
	if need := len(h.buf) + len(p); need > cap(h.buf) {
		// grow by doubling, never past max: a big output's buffer ends at
		// max bytes, not at up to twice that as an unbounded append's may
		grown := make([]byte, len(h.buf), min(max(2*cap(h.buf), need, 512), h.max))
		copy(grown, h.buf)
		h.buf = grown
	}
	h.buf = append(h.buf, p...)
	return n, nil
}

// String returns the bytes kept.
func (h *Head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.buf)
}

// Truncated reports whether bytes were dropped.
func (h *Head) Truncated() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.truncated
}
