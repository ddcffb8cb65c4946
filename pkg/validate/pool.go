package validate

import (
	"sync"
	"sync/atomic"
)

// eachParallel calls do(i) once for every i in [0, n), on at most jobs
// goroutines (the caller's among them: jobs 1 runs everything on it).
//
// Each worker owns one contiguous run of indexes and takes them front to
// back; a worker whose run is done takes from the back of the run with
// the most left. Neighbouring stories (copies side by side, stories of
// one directory sharing an import) are thus checked by one worker one
// after the other, not by two at once where the second would wait on the
// first's parse of the shared file; and no goroutine is started or woken
// per story.
func eachParallel(n, jobs int, do func(i int)) {
	if jobs > n {
		jobs = n
	}
	if jobs <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	runs := make([]span, jobs)
	for w := range runs {
		runs[w].set(w*n/jobs, (w+1)*n/jobs)
	}
	work := func(w int) {
		for {
			i, ok := runs[w].front()
			if !ok {
				break
			}
			do(i)
		}
		for {
			// The run with the most left, taken from its back.
			v, most := -1, 0
			for j := range runs {
				if left := runs[j].left(); left > most {
					v, most = j, left
				}
			}
			if v < 0 {
				return
			}
			if i, ok := runs[v].back(); ok {
				do(i)
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < jobs; w++ {
		wg.Go(func() { work(w) })
	}
	work(0)
	wg.Wait()
}

// span is a run of indexes [lo, hi) taken from either end: lo and hi are
// packed in one word, so a take is one compare-and-swap. It is padded to
// a cache line of its own (workers on other cores update their own).
type span struct {
	lohi atomic.Uint64
	_    [56]byte
}

func (s *span) set(lo, hi int) { s.lohi.Store(uint64(lo)<<32 | uint64(hi)) }

func (s *span) left() int {
	v := s.lohi.Load()
	return max(int(uint32(v))-int(v>>32), 0)
}

// front takes the lowest index left.
func (s *span) front() (int, bool) {
	for {
		v := s.lohi.Load()
		lo, hi := v>>32, v&0xffffffff
		if lo >= hi {
			return 0, false
		}
		if s.lohi.CompareAndSwap(v, (lo+1)<<32|hi) {
			return int(lo), true
		}
	}
}

// back takes the highest index left.
func (s *span) back() (int, bool) {
	for {
		v := s.lohi.Load()
		lo, hi := v>>32, v&0xffffffff
		if lo >= hi {
			return 0, false
		}
		if s.lohi.CompareAndSwap(v, lo<<32|(hi-1)) {
			return int(hi - 1), true
		}
	}
}
