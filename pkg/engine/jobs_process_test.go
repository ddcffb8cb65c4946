package engine

import (
	"context"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// processJobStory submits a background host.run from s's arm k and from
// the terminal f's on_enter; both on_completes write p.
const processJobStory = `app: {id: pj}
world:
  p: {type: any, default: ''}
intents: {k: {}, z: {}, y: {}}
root: s
states:
  s:
    on:
      k: [{target: ., effects: [{invoke: host.run, background: true, with: {cmd: x}, on_complete: [{set: {p: "{{ world.last_job_status }}"}}]}]}]
      z: [{target: .}]
      y: [{target: f}]
  f:
    terminal: true
    on_enter:
      - invoke: host.run
        background: true
        with: {cmd: x}
        on_complete: [{set: {p: heard}}]
`

// gatedProcess is a session of processJobStory on a virtual clock whose
// host.run is registered as the real built-in (one that starts a process:
// startsProcess) and answers only once release is closed: a stand-in for
// the process, which the test lets end when it wants.
func gatedProcess(t *testing.T) (s *Session, release chan struct{}) {
	t.Helper()
	m := compileSource(t, "pj.yaml", processJobStory, CompileOptions{LateHandlers: true})
	release = make(chan struct{})
	reg := host.NewRegistry()
	reg.RegisterInfo("host.run", host.HandlerFunc(func(ctx context.Context, _ *host.Call) (host.Result, error) {
		select {
		case <-release:
			return host.Result{Data: map[string]any{"ok": true}}, nil
		case <-ctx.Done():
			return host.Result{}, ctx.Err()
		}
	}), host.Info{Source: host.SourceBuiltin})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "s", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
		s.Close()
	})
	return s, release
}

// waitEnded waits until no job of s runs its process any more.
func waitEnded(t *testing.T, s *Session) {
	t.Helper()
	for {
		running, ch := s.r.processRunningCh()
		if !running {
			return
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-ch:
		}
	}
}

// A job running a real process, on a virtual clock, is not landed between
// turns while the process runs, and is by the next advance, which waits for
// it (upstream's park barrier; conformance job-process-real-time).
func TestProcessJobLandsAtAdvanceWhileRunning(t *testing.T) {
	s, release := gatedProcess(t)
	fire(t, s, "k")
	fire(t, s, "z")
	if p := s.World()["p"]; p != "" {
		t.Fatalf("p = %q before the process ended", p)
	}
	close(release)
	if _, err := s.Advance(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	if p := s.World()["p"]; p != JobDone {
		t.Fatalf("p = %q after the advance, want done", p)
	}
}

// Once its process has ended, the job lands before the next user turn, as
// a stub's does (m2/014's fixture m3, hunt19).
func TestProcessJobLandsBetweenTurnsOnceEnded(t *testing.T) {
	s, release := gatedProcess(t)
	fire(t, s, "k")
	close(release)
	waitEnded(t, s)
	fire(t, s, "z")
	if p := s.World()["p"]; p != JobDone {
		t.Fatalf("p = %q at the turn after the process ended, want done", p)
	}
}

// A process still running when the session rests in a terminal state was
// not heard by upstream's listener: its on_complete is skipped, though the
// advance waits for it and the job ends done.
func TestProcessJobRunningAtTerminalNotHeard(t *testing.T) {
	s, release := gatedProcess(t)
	fire(t, s, "y")
	close(release)
	if _, err := s.Advance(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	if p := s.World()["p"]; p != "" {
		t.Fatalf("p = %q: the on_complete of a job still running at the terminal rest ran", p)
	}
	jobs := s.Jobs()
	if len(jobs) != 1 || jobs[0].Status != JobDone {
		t.Fatalf("jobs = %+v, want one done", jobs)
	}
}
