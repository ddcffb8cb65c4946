package engine

import (
	"fmt"
	"testing"
	"time"
)

// jobLoopStory: each job's on_complete enters the other state, whose
// on_enter starts the next job while world.n < %d: one advance lands
// them all.
const jobLoopStory = `app: {id: loop}
hosts: [host.job]
intents:
  go: {}
root: a
world:
  n: {type: int, default: 0}
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter:
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < %[1]d
        on_complete: [{target: c}]
  c:
    on_enter:
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < %[1]d
        on_complete: [{target: b}]
`

// BenchmarkJobChainLanding lands a chain of jobs in one advance, at the
// most completions one advance may land (maxLandJobs) and at a tenth of
// it: what a step costs as the job store grows.
func BenchmarkJobChainLanding(b *testing.B) {
	for _, n := range []int{maxLandJobs / 10, maxLandJobs} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := compileSource(b, "app.yaml", fmt.Sprintf(jobLoopStory, n), CompileOptions{LateHandlers: true})
			reg := instantJobHosts()
			for b.Loop() {
				b.StopTimer()
				s, err := Start(b.Context(), m, SessionOptions{StartState: "a", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Fire(b.Context(), Input{Intent: "go"}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Advance(b.Context(), time.Second); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if got := len(s.Jobs()); got != n-1 {
					b.Fatalf("%d jobs ran, want %d", got, n-1)
				}
				s.Close()
				b.StartTimer()
			}
		})
	}
}
