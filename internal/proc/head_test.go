package proc

import (
	"strings"
	"sync"
	"testing"
)

func TestHeadKeepsTheStartAndSaysItCut(t *testing.T) {
	h := NewHead(5)
	for _, s := range []string{"ab", "cd", "efg", "h"} {
		if n, err := h.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want the whole length and no error", s, n, err)
		}
	}
	if h.String() != "abcde" || !h.Truncated() {
		t.Fatalf("head %q truncated %v, want abcde and true", h.String(), h.Truncated())
	}
	fits := NewHead(4)
	fits.Write([]byte("abcd"))
	if fits.String() != "abcd" || fits.Truncated() {
		t.Fatalf("exact fit: %q %v", fits.String(), fits.Truncated())
	}
}

func TestHeadConcurrentWriters(t *testing.T) {
	h := NewHead(1000)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				h.Write([]byte("xyz"))
			}
		})
	}
	wg.Wait()
	if got := h.String(); len(got) != 1000 || strings.Trim(got, "xyz") != "" || !h.Truncated() {
		t.Fatalf("kept %d bytes (truncated %v), want 1000 of x, y, z", len(got), h.Truncated())
	}
}

// TestHeadBufferNeverPastMax: however the writes are cut, the kept buffer
// grows to max bytes at the most (a doubling append could reach nearly
// twice that), so what a big output costs does not depend on how the
// pipe's reads fell.
func TestHeadBufferNeverPastMax(t *testing.T) {
	const max = 1<<20 + 3
	for _, chunk := range []int{1, 7, 4096, 65536, 700_001} {
		h := NewHead(max)
		p := make([]byte, chunk)
		for written := 0; written < 3*max; written += chunk {
			h.Write(p)
		}
		if len(h.buf) != max || cap(h.buf) > max || !h.Truncated() {
			t.Errorf("chunks of %d: kept %d bytes in a buffer of %d (max %d), truncated %v", chunk, len(h.buf), cap(h.buf), max, h.Truncated())
		}
	}
}
