package fetch

import (
	"sync"
	"sync/atomic"
	"time"
)

// stallSwitch stands in for the clock of a Fetcher's stall timers: its
// timers never fire by themselves, only when the test calls fire. A test
// that fires them exactly when its server has gone silent cannot be tripped
// by a slow but live transfer on a loaded machine.
type stallSwitch struct {
	mu    sync.Mutex
	armed map[*switchTimer]struct{}
	// fireOnStop makes the next Stop fire its timer first, as the real clock
	// does when the timeout passes just as the request gets its answer.
	fireOnStop bool
}

type switchTimer struct {
	sw   *stallSwitch
	fire func()
}

func newStallSwitch() *stallSwitch {
	return &stallSwitch{armed: map[*switchTimer]struct{}{}}
}

// afterFunc is the Fetcher's seam; the duration is irrelevant here.
func (sw *stallSwitch) afterFunc(_ time.Duration, fire func()) stallTimer {
	tm := &switchTimer{sw: sw, fire: fire}
	sw.mu.Lock()
	sw.armed[tm] = struct{}{}
	sw.mu.Unlock()
	return tm
}

func (tm *switchTimer) Reset(time.Duration) bool {
	tm.sw.mu.Lock()
	defer tm.sw.mu.Unlock()
	_, was := tm.sw.armed[tm]
	tm.sw.armed[tm] = struct{}{}
	return was
}

func (tm *switchTimer) Stop() bool {
	tm.sw.mu.Lock()
	_, was := tm.sw.armed[tm]
	delete(tm.sw.armed, tm)
	late := was && tm.sw.fireOnStop
	if late {
		tm.sw.fireOnStop = false
	}
	tm.sw.mu.Unlock()
	if late {
		tm.fire()
		return false
	}
	return was
}

// fire fires every armed timer, as the real clock would once the stall
// timeout passed without a byte, and returns how many fired.
func (sw *stallSwitch) fire() int {
	sw.mu.Lock()
	var due []*switchTimer
	for tm := range sw.armed {
		due = append(due, tm)
	}
	clear(sw.armed)
	sw.mu.Unlock()
	for _, tm := range due {
		tm.fire()
	}
	return len(due)
}

// stallOnSilence drives f's stall timers from fs: each time a handler of fs
// goes silent (fs.hangs), the armed timer fires once the client holds every
// byte fs sent — never before, so no live transfer is cut. The client's
// byte count comes from f's progress reports, so f must start from an empty
// cache. It returns how many stalls were fired.
func stallOnSilence(f *Fetcher, fs *fileServer) *atomic.Int32 {
	sw := newStallSwitch()
	f.afterFunc = sw.afterFunc
	var fired atomic.Int32
	next := f.Progress
	f.Progress = func(p Progress) {
		if next != nil {
			next(p)
		}
		if p.Phase == PhaseDownload && fs.hangs.Load() > fired.Load() && p.Done == fs.sent.Load() && sw.fire() > 0 {
			fired.Add(1)
		}
	}
	return &fired
}
