package engine

import (
	"testing"
	"time"
)

// Only the resting state's own timeout is armed (story-runtime §4, probe
// p3 b.yaml): a compound ancestor's never fires while the machine rests in
// a child; the leaf's does.
func TestOnlyTheRestingLeafsTimeoutIsArmed(t *testing.T) {
	m := compileSource(t, "leaf.yaml", `app: {id: leaf}
intents:
  next: {}
root: par
states:
  par:
    initial: c1
    timeout: {after: 1m, target: gone}
    states:
      c1:
        on: {next: [{target: par.c2}]}
      c2:
        timeout: {after: 1m, target: done}
  gone: {terminal: true}
  done: {terminal: true}
`, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "par.c1", Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Advance(t.Context(), 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := s.State(); got != "par.c1" {
		t.Fatalf("after 2m in par.c1: state %q; the compound's timeout must not fire", got)
	}
	if _, err := s.Fire(t.Context(), Input{Intent: "next"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(t.Context(), 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := s.State(); got != "done" {
		t.Fatalf("after 2m in par.c2: state %q, want done (the leaf's own timeout)", got)
	}
}
