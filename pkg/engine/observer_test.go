package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/allocs"
	"kitsoki/pkg/host"
)

// countObserver counts what it is told, by "kind line".
type countObserver struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *countObserver) Reached(k ReachKind, at Pos) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == nil {
		o.n = map[string]int{}
	}
	o.n[fmt.Sprintf("%s %d", k, at.Line)]++
}

const observedStory = `app: {id: obs}
root: start
exits:
  done: {}
world:
  n: {type: int, default: 0}
intents: {go: {}, skip: {}, leave: {}}
states:
  start:
    on:
      go:
        - when: "world.n > 5"
          target: never
        - target: work
      skip: [{target: finish}]
  work:
    on_enter:
      - set: {n: 1}
      - say: "hidden"
        when: "world.n > 9"
      - invoke: host.fail
        on_error: waiting
  waiting:
    timeout:
      after: 5m
      target: finish
  never: {}
  finish:
    on:
      leave: [{target: "@exit:done"}]
`

// The observer hears every state entered, arc chosen, effect run, on_error
// redirect, timeout and exit, at the author's lines; Reachables lists each
// of them once, and the parts the run missed are the ones it never heard.
func TestObserverHearsWhatRuns(t *testing.T) {
	m, s, obs := observed(t, observedStory, "host.fail", host.Result{Error: "boom"})
	fire(t, s, "go")
	advance(t, s, 10*time.Minute)
	fire(t, s, "leave")
	if got := s.State(); got != "__exit__done" {
		t.Fatalf("state %s", got)
	}
	want := map[string]int{
		"state 9":  1, // placed at start
		"arc 14":   1, // the fallback, not the guarded arm (line 12)
		"state 16": 1, "effect 18": 1, "effect 21": 1, "on_error 22": 1,
		"state 23": 1, "timeout 24": 1,
		"state 28": 1, "arc 30": 1, "exit 4": 1,
	}
	if fmt.Sprint(obs.n) != fmt.Sprint(want) {
		t.Errorf("heard\n%v\nwant\n%v", obs.n, want)
	}
	var all []string
	for _, r := range m.Reachables() {
		all = append(all, fmt.Sprintf("%s %d", r.Kind, r.Pos.Line))
	}
	wantAll := []string{"state 9", "arc 12", "arc 14", "arc 15", "state 16", "effect 18", "effect 19", "effect 21", "on_error 22",
		"state 23", "timeout 24", "state 27", "state 28", "arc 30", "exit 4"}
	if !slices.Equal(all, wantAll) {
		t.Errorf("reachables\n%v\nwant\n%v", all, wantAll)
	}
}

// observed starts src at its state start with an observer, handler name
// answering res on a virtual clock; the session closes with the test.
func observed(t *testing.T, src, name string, res host.Result) (*Machine, *Session, *countObserver) {
	t.Helper()
	m := compileSource(t, "app.yaml", src, CompileOptions{LateHandlers: true})
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register(name, host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) { return res, nil }))
	obs := &countObserver{}
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Observer: obs}, StartState: "start", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s, obs
}

// Without an observer nothing is counted and nothing allocates for it.
func TestObserverNilIsFree(t *testing.T) {
	m := compileSource(t, "app.yaml", observedStory, CompileOptions{LateHandlers: true})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "start", Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := allocs.PerRun(20, func() { s.r.reach(ReachArc, Pos{File: "app.yaml", Line: 3}) })
	if n != 0 {
		t.Errorf("reach without an observer allocates %v times", n)
	}
}

func TestReachKindNames(t *testing.T) {
	for k := ReachState; k <= ReachEffect; k++ {
		back, ok := ParseReachKind(k.String())
		if !ok || back != k {
			t.Errorf("%d: %q parses back to %d, %v", k, k.String(), back, ok)
		}
	}
	if _, ok := ParseReachKind("bogus"); ok {
		t.Error("bogus parsed")
	}
	if ReachKind(99).String() != "unknown" {
		t.Error("99 has a name")
	}
}
