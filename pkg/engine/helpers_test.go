package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// answerOf is the answer a stand-in agent gives with the submission sub:
// its Value decoded as the agent layer decodes it (pkg/agent's
// Result.Value), or the text when sub is not one JSON value.
func answerOf(sub string) *AgentAnswer {
	var v any
	if err := jsonvalue.OneExact([]byte(sub), &v); err != nil {
		return &AgentAnswer{Submission: []byte(sub), Value: sub}
	}
	return &AgentAnswer{Submission: []byte(sub), Value: jsonvalue.Ints(v)}
}

// recSink records every event of a run.
type recSink struct {
	mu  sync.Mutex
	evs []Event
}

func (s *recSink) Emit(ev Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evs = append(s.evs, ev)
	return nil
}

func (s *recSink) kinds(kind string) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Event
	for _, e := range s.evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func (s *recSink) entered() []string {
	var out []string
	for _, e := range s.kinds(KindStateEntered) {
		out = append(out, e.StatePath)
	}
	return out
}

func payloadMap(t *testing.T, p any) map[string]any {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// loadStory loads testdata/<name> and fails on load errors.
func loadStory(t testing.TB, name string) *story.Story {
	t.Helper()
	return storyload.Load(t, filepath.Join("testdata", name), story.Options{})
}

func compileStory(t testing.TB, name string) *Machine {
	t.Helper()
	m, err := Compile(loadStory(t, name), CompileOptions{})
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return m
}

// compileSource loads an in-memory app.yaml (name in diagnostics) and
// compiles it with opts, failing the test where either refuses it.
func compileSource(t testing.TB, name, src string, opts CompileOptions) *Machine {
	t.Helper()
	st, ds := lint.LoadSource(name, []byte(src), story.Options{})
	if st == nil || unrunnable(ds) {
		t.Fatalf("load: %v", ds)
	}
	m, err := Compile(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runStory runs testdata/<name> from root (or from the given root state).
func runStory(t testing.TB, name, root string, opts Options) (*Result, *recSink) {
	t.Helper()
	m := compileStory(t, name)
	if root != "" {
		m.Root = root
	}
	sink := &recSink{}
	opts.Sink = sink
	return RunSession(context.Background(), m, SessionOptions{Bootstrap: true, Options: opts}), sink
}

// runWant runs testdata/<name> as runStory does and fails the test unless
// the run ends with outcome at state.
func runWant(t *testing.T, name, root string, opts Options, outcome, state string) (*Result, *recSink) {
	t.Helper()
	res, sink := runStory(t, name, root, opts)
	wantOutcome(t, res, outcome, state)
	return res, sink
}

// wantWorld fails unless the world's key holds want; why says which rule
// the value shows.
func wantWorld(t *testing.T, w World, key string, want any, why string) {
	t.Helper()
	if got := w[key]; got != want {
		t.Errorf("%s = %#v, want %#v: %s", key, got, want, why)
	}
}

// sameNum reports whether got is the number want, whatever its Go type
// (a run's world holds the replayed shape: a declared int is an int64,
// another number a float64; replay.go).
func sameNum(got any, want float64) bool {
	switch v := got.(type) {
	case int:
		return float64(v) == want
	case int64:
		return float64(v) == want
	case float64:
		return v == want
	}
	return false
}

// needSh skips a test whose story runs sh through host.run.
func needSh(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
}

func wantOutcome(t *testing.T, res *Result, outcome, state string) {
	t.Helper()
	if res.Outcome != outcome || res.State != state {
		t.Fatalf("outcome %s at %q (err %v), want %s at %q", res.Outcome, res.State, res.Err, outcome, state)
	}
}

// onErrorTransitions are the machine.transition events of on_error
// redirects (story-runtime §2.4).
func onErrorTransitions(t *testing.T, s *recSink) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range s.kinds(KindTransition) {
		if p := payloadMap(t, e.Payload); p["intent"] == "on_error" {
			out = append(out, p)
		}
	}
	return out
}

// unrunnable reports whether any diagnostic of ds is [lint.Blocking].
func unrunnable(ds []diag.Diagnostic) bool { return slices.ContainsFunc(ds, lint.Blocking) }
