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
