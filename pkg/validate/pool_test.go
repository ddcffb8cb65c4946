package validate

import (
	"sync"
	"sync/atomic"
	"testing"

	"kitsoki/pkg/story"
)

// TestEachParallelCallsEveryIndexOnce runs the pool over counts and job
// numbers around its edges (more jobs than items, one job, uneven runs):
// every index is done exactly once, on at most jobs goroutines at a time.
func TestEachParallelCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 88, 1000} {
		for _, jobs := range []int{1, 2, 3, 8, 2000} {
			seen := make([]atomic.Int32, n)
			var running, peak atomic.Int32
			var mu sync.Mutex
			eachParallel(n, jobs, func(i int) {
				r := running.Add(1)
				mu.Lock()
				peak.Store(max(peak.Load(), r))
				mu.Unlock()
				seen[i].Add(1)
				running.Add(-1)
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d jobs=%d: index %d done %d times", n, jobs, i, c)
				}
			}
			if p := int(peak.Load()); p > jobs {
				t.Errorf("n=%d jobs=%d: %d calls ran at once", n, jobs, p)
			}
		}
	}
}

// TestEachParallelOneJobInOrder: --jobs 1 checks the stories one after
// the other, in order, on the caller's goroutine.
func TestEachParallelOneJobInOrder(t *testing.T) {
	var got []int
	eachParallel(5, 1, func(i int) { got = append(got, i) })
	for i, v := range got {
		if v != i {
			t.Fatalf("order %v", got)
		}
	}
	if len(got) != 5 {
		t.Fatalf("got %v", got)
	}
}

// TestEachParallelStealsFromTheBack: a worker done with its run takes
// the other run's last index, not its next one (the owner keeps its
// neighbours). Worker 0's first call blocks until worker 1 has finished
// its own run and stolen one index from worker 0's.
func TestEachParallelStealsFromTheBack(t *testing.T) {
	release := make(chan struct{})
	var stolen atomic.Int32
	stolen.Store(-1)
	var once sync.Once
	eachParallel(6, 2, func(i int) {
		switch {
		case i == 0:
			<-release // worker 0 holds index 0 until a steal happened
		case i < 3:
			// The first other index of worker 0's run [0, 3) to be done
			// can only be a steal by worker 1, done with its run [3, 6).
			once.Do(func() { stolen.Store(int32(i)); close(release) })
		}
	})
	if s := stolen.Load(); s != 2 {
		t.Fatalf("first index of worker 0's run taken while it was busy = %d, want 2 (its back)", s)
	}
}

// TestRunSameResultWhateverJobs: the findings, their order and the
// verdicts do not depend on how many workers check the stories nor on
// which worker checks which (two copies of every story, so workers share
// parse-cache entries).
func TestRunSameResultWhateverJobs(t *testing.T) {
	_, files := leakCorpus(t)
	var want string
	for _, jobs := range []int{1, 2, 3, 8} {
		got := renderResult(Run(files, Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true, Jobs: jobs}))
		if jobs == 1 {
			want = got
			continue
		}
		if got != want {
			t.Errorf("--jobs %d differs from --jobs 1:\n%s", jobs, lineDiff(want, got))
		}
	}
}
