package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// chainStory: each job's on_complete enters the other state, whose
// on_enter appends 1 KiB to world.t and starts the next job, 200 times;
// every completion's world.update keeps its copy of t, about 20 MB in all.
const chainStory = `app: {id: chain}
hosts: [host.job]
intents:
  go: {}
root: a
world:
  t: {type: string, default: ""}
  n: {type: int, default: 0}
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter:
      - set: {t: "{{ world.t + '` + kib + `' }}"}
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < 200
        on_complete: [{target: c}]
  c:
    on_enter:
      - set: {t: "{{ world.t + '` + kib + `' }}"}
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < 200
        on_complete: [{target: b}]
`

const kib = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// chainSession starts chainStory on a virtual clock with the cap lowered
// to 1 MiB and fires go (the first job, due at once, is submitted).
func chainSession(t *testing.T) *Session {
	t.Helper()
	m := compileSource(t, "app.yaml", chainStory, CompileOptions{LateHandlers: true})
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register("host.job", host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{Data: map[string]any{"v": "K"}}, nil
	}))
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.r.heldCap = 1 << 20
	fire(t, s, "go")
	return s
}

// The completions of one advance are one Turn: a chain of jobs whose
// on_complete grows a world value kept every copy (a generated story with
// a trail drove kitsoki test out of memory). Past the cap the advance
// fails, naming the effect that starts the job and the fix.
func TestLandingJobsKeepBounded(t *testing.T) {
	s := chainSession(t)
	_, err := s.Advance(t.Context(), time.Second)
	if err == nil {
		t.Fatal("200 completions keeping 20 MB passed a 1 MiB cap")
	}
	for _, want := range []string{"app.yaml:", "the background jobs landing in one advance_clock kept more than 1 MiB of events", "host.job job", "start fewer jobs from on_complete"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// the jobs due before a user turn land under the same cap
	s = chainSession(t)
	if _, err := s.Fire(t.Context(), Input{Intent: "go"}); err == nil || !strings.Contains(err.Error(), "landing before the turn kept more than 1 MiB") {
		t.Errorf("landing before a turn: %v", err)
	}
}

// TestLandHeldCapIsTheDocumented: completions landing together keep at
// most maxLandHeld, the 256 MiB docs/compat/hardening.md states, and a
// session starts with it.
func TestLandHeldCapIsTheDocumented(t *testing.T) {
	if maxLandHeld != 256<<20 {
		t.Fatalf("maxLandHeld is %d bytes; docs/compat/hardening.md says 256 MiB", maxLandHeld)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "The job completions landing in one advance keep at most 256 MiB of events") {
		t.Fatal("docs/compat/hardening.md no longer states the 256 MiB bound of job completions landing together")
	}
	if r := newRunner(compileSource(t, "app.yaml", chainStory, CompileOptions{LateHandlers: true}), SessionOptions{}); r.heldCap != maxLandHeld {
		t.Errorf("a session's cap is %d bytes, want maxLandHeld", r.heldCap)
	}
}
