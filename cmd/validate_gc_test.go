package cmd

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// afterEachGC reports the live heap after each collection, and stops once
// its function says so: here the third report, after the test holds 8 MiB.
func TestAfterEachGCReportsTheLiveHeap(t *testing.T) {
	held := make([]byte, 8<<20)
	lives := make(chan uint64, 8)
	var calls atomic.Int32
	afterEachGC(func(live uint64) bool {
		n := calls.Add(1)
		lives <- live
		return n == 3
	})
	var got []uint64
	for len(got) < 3 {
		runtime.GC()
		select {
		case l := <-lives:
			got = append(got, l)
		default:
			runtime.Gosched() // the cleanup runs on its own goroutine
		}
	}
	runtime.KeepAlive(held)
	for i, l := range got {
		if l < uint64(len(held)) {
			t.Errorf("report %d: live heap %d bytes, under the %d the test holds", i, l, len(held))
		}
	}
	for range 3 {
		runtime.GC()
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d reports, want 3 (the function asked to stop at the third)", n)
	}
}
