package proc

import (
	"bytes"
	"sync"
)

// Tail keeps the last max bytes written to it: a child's stderr (or
// combined output), quoted when the child fails. It is safe for
// concurrent use and never grows past max.
type Tail struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	wrapped bool // bytes were dropped from the front
}

// NewTail returns a Tail that keeps n bytes (at least 1).
func NewTail(n int) *Tail { return &Tail{max: max(n, 1)} }

// Write keeps the end of p; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.max { // keep only p's end, without growing buf first
		t.wrapped = t.wrapped || len(t.buf)+len(p) > t.max
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.wrapped = true
	}
	return len(p), nil
}

// String returns the bytes kept, as written ("" for a nil Tail).
func (t *Tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Lines returns the bytes kept from the first whole line: when bytes were
// dropped from the front, the partial first line goes too (so no half of a
// secret a redactor would mask whole survives the cut).
func (t *Tail) Lines() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.wrapped {
		_, b, _ = bytes.Cut(b, []byte{'\n'})
	}
	return string(b)
}
