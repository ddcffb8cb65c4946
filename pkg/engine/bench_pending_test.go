package engine

import (
	"context"
	"fmt"
	"testing"

	"kitsoki/pkg/host"
)

// farFutureStory: b and c time out into each other; each of the first
// %[1]d starts a job that runs until the session ends. Every timeout is a
// wake of kitsoki run's wait, which counts the running jobs (pending).
const farFutureStory = `app: {id: far}
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
        when: world.n <= %[1]d
    timeout: {after: 1ns, target: c}
  c:
    on_enter:
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n <= %[1]d
    timeout: {after: 1ns, target: b}
`

// BenchmarkPendingFarFutureJobs: kitsoki run's waits with thousands of
// jobs that never land while timeouts fire (the jobs' scan in pending at
// each wake).
func BenchmarkPendingFarFutureJobs(b *testing.B) {
	for _, n := range []int{10, 3000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := compileSource(b, "app.yaml", fmt.Sprintf(farFutureStory, n), CompileOptions{LateHandlers: true})
			reg := host.NewRegistry()
			PrepareHosts(reg)
			reg.Register("host.job", host.HandlerFunc(func(ctx context.Context, _ *host.Call) (host.Result, error) {
				<-ctx.Done()
				return host.Result{}, ctx.Err()
			}))
			for b.Loop() {
				ctx, cancel := context.WithCancel(b.Context())
				waits := 0
				// the jobs never end: the run is interrupted after the
				// last timeout, as --timeout would
				sink := SinkFunc(func(ev Event) error {
					if ev.Kind == "machine.timeout" {
						if waits++; waits > n+3000 {
							cancel()
						}
					}
					return nil
				})
				s, err := Start(ctx, m, SessionOptions{Options: Options{Inputs: []Input{{Intent: "go"}}, Sink: sink}, StartState: "a", Hosts: reg})
				if err != nil {
					b.Fatal(err)
				}
				s.r.landCap, s.r.heldCap = 1<<30, 1<<40
				consumed := 0
				err = s.runInputs(ctx, &consumed)
				s.Close()
				cancel()
				if waits <= n+3000 {
					b.Fatalf("ended after %d waits: %v", waits, err)
				}
			}
		})
	}
}
