package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

const watchStory = `app:
  id: watched
root: a
world:
  n: { type: int, default: 0 }
intents:
  go: {}
states:
  a:
    on:
      go: [ { target: b, effects: [ { set: { n: 1 } } ] } ]
  b:
    terminal: true
`

const watchFlowA = `test_kind: flow
initial_state: a
turns:
  - intent: { name: go, slots: {} }
    expect_state: b
`

const watchFlowB = `test_kind: flow
initial_state: a
turns:
  - intent: { name: go, slots: {} }
    expect_world: { n: 1 }
`

// test --watch runs every fixture, then on real file changes only the
// affected ones: a changed fixture alone, every fixture of a story whose
// file changed; the context's end stops it cleanly. Each step waits for
// the output it expects (a bound on a broken watch, not a timing
// assumption).
func TestWatchRerunsAffectedFixtures(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": watchStory, "flows/a.yaml": watchFlowA, "flows/b.yaml": watchFlowB, ".kitsoki/.keep": "",
	})
	var out, errb storytest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- runTests(ctx, &out, &errb, []string{dir}, &testFlags{watch: true, format: "text"})
	}()
	wait := func(what string) {
		t.Helper()
		if !waitFor(func() bool { return strings.Contains(out.String(), what) }, time.Minute) {
			t.Fatalf("no %q in:\n%s\nstderr:\n%s", what, out.String(), errb.String())
		}
	}
	wait("2 passed, 0 failed")
	wait("watching ")
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("flows/a.yaml", strings.Replace(watchFlowA, "expect_state: b", "expect_state: a", 1))
	wait("a.yaml changed: 1 fixture file\n")
	wait("0 passed, 1 failed")
	if !strings.Contains(out.String(), `FAIL `+filepath.Join(dir, "flows", "a.yaml")) || !strings.Contains(out.String(), `want "a"`) {
		t.Fatalf("the failure is not shown:\n%s", out.String())
	}
	write("app.yaml", strings.Replace(watchStory, "n: 1", "n: 2", 1))
	wait("app.yaml changed: 2 fixture files\n")
	wait("0 passed, 2 failed")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("watch ended with %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the watch did not stop")
	}
	if !strings.HasSuffix(out.String(), "watch stopped\n") {
		t.Fatalf("output:\n%s", out.String())
	}
}

// --watch refuses the reports of a single run.
func TestWatchRefusesReports(t *testing.T) {
	code, _, stderr := runCmd(t, "test", t.TempDir(), "--watch", "--json", "r.json")
	if code != exitUsageEnv || !strings.Contains(stderr, "--json goes with a single run") {
		t.Fatalf("code %d: %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "test", t.TempDir(), "--watch", "--cover")
	if code != exitUsageEnv || !strings.Contains(stderr, "--cover and its profiles go with a single run") {
		t.Fatalf("--cover: code %d: %s", code, stderr)
	}
}
