package closeonce

import (
	"sync"
	"testing"
)

// Only the first of many concurrent callers wins, and take runs once,
// under the mutex.
func TestMarkFirstCallOnly(t *testing.T) {
	var (
		mu     sync.Mutex
		closed bool
		res    = "resource"
		got    []string
		wins   int
		winsMu sync.Mutex
		wg     sync.WaitGroup
	)
	for range 16 {
		wg.Go(func() {
			var r string
			if Mark(&mu, &closed, func() { r, res = res, "" }) {
				winsMu.Lock()
				wins++
				got = append(got, r)
				winsMu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 || len(got) != 1 || got[0] != "resource" || res != "" || !closed {
		t.Fatalf("wins %d, taken %q, left %q, closed %v", wins, got, res, closed)
	}
	if Mark(&mu, &closed, func() { t.Fatal("take ran after the first Close") }) {
		t.Fatal("a later Mark won")
	}
	var mu2 sync.Mutex
	var closed2 bool
	if !Mark(&mu2, &closed2, nil) || !closed2 {
		t.Fatal("Mark with a nil take")
	}
}
