package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/host"
)

// asKitsokiEnv, set to 1 in its environment, makes this test binary kitsoki
// (TestMain calls runAsKitsoki): a real kitsoki process without a second
// build of kitsoki.
const asKitsokiEnv = "KITSOKI_CMD_TEST_AS_KITSOKI"

// runAsKitsoki runs the process's command line as kitsoki's main does, with
// host.test.panic added to run's and test's host registries: a real
// handler that panics with its with: value. kitsoki's own binary has no
// such handler: only a test sets the context value that adds it.
func runAsKitsoki() int {
	panics := host.HandlerFunc(func(_ context.Context, c *host.Call) (host.Result, error) {
		panic(c.Args["value"])
	})
	ctx := context.WithValue(context.Background(), addedHostsKey{}, map[string]host.Handler{"host.test.panic": panics})
	return runIOContext(ctx, os.Args[1:], nil, os.Stdout, os.Stderr)
}

// panicStory calls host.test.panic in the foreground (fg, on_error to a
// terminal state) and as a background job (bg, on_complete to a terminal
// state): a story that handles the failure either way.
const panicStory = `app: { id: panicky, version: 0.1.0, title: Panicky }
hosts: [host.test.panic]
world:
  s: { type: string, default: "" }
intents: { fg: {}, bg: {} }
root: a
states:
  a:
    view: "A"
    on:
      fg:
        - target: a
          effects:
            - invoke: host.test.panic
              with: { value: "boom" }
              on_error: failed
      bg: [ { target: j } ]
  failed: { view: "FAILED", terminal: true }
  j:
    view: "J"
    on_enter:
      - invoke: host.test.panic
        background: true
        with: { value: "kaboom" }
        on_complete:
          - set: { s: "{{ world.last_job_status }}" }
          - target: done
    on: {}
  done: { view: "DONE s={{ world.s }}", terminal: true }
`

const panicFlows = `test_kind: flow
app: ../app.yaml
initial_state: a
use_orchestrator: true
host_bindings: {host.test.panic: host.test.panic}
turns:
`

// panicKitsoki returns this test binary, which runs as kitsoki with
// host.test.panic (runAsKitsoki), and writes panicStory with a foreground
// and a background fixture.
func panicKitsoki(t *testing.T) (bin, dir string) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = storytest.TempTree(t, map[string]string{
		"app.yaml":      panicStory,
		"flows/fg.yaml": panicFlows + "  - intent: { name: fg }\n    expect_state: failed\n",
		"flows/bg.yaml": panicFlows + "  - intent: { name: bg }\n    expect_state: j\n  - advance_clock: 2s\n    expect_state: done\n    expect_world: { s: failed }\n",
	})
	return bin, dir
}

// exited runs bin as kitsoki (asKitsokiEnv) in dir and returns its exit
// status and combined output; a status of -1 (killed by a signal) fails
// the test.
func exited(t *testing.T, dir, bin string, args ...string) (int, string) {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), asKitsokiEnv+"=1")
	out, err := c.CombinedOutput()
	code := c.ProcessState.ExitCode()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || code < 0) {
		t.Fatalf("kitsoki %s: %v (%v)\n%s", strings.Join(args, " "), err, ee, out)
	}
	return code, string(out)
}

// A handler that panics fails its call, in the foreground and as a
// background job: kitsoki test goes on, fails the fixture at the turn
// with one line naming the handler and saying it is a kitsoki bug, and
// prints no stack.
func TestHandlerPanicKitsokiTest(t *testing.T) {
	bin, dir := panicKitsoki(t)
	code, out := exited(t, dir, bin, "test", "app.yaml")
	if code != exitFinding {
		t.Fatalf("exit %d, want %d:\n%s", code, exitFinding, out)
	}
	for _, want := range []string{
		"FAIL  flows/bg.yaml",
		"flows/bg.yaml:9:5: host.test.panic: the handler panicked: kaboom (a kitsoki bug: please report it, with the trace)",
		"FAIL  flows/fg.yaml",
		"flows/fg.yaml:7:5: host.test.panic: the handler panicked: boom (a kitsoki bug: please report it, with the trace)",
		"0 passed, 2 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "goroutine ") || strings.Contains(out, "internal error") {
		t.Errorf("output has a stack or an internal error:\n%s", out)
	}
}

// kitsoki run: the run goes on through on_error (or on_complete) to its
// terminal state, exits 1 saying a handler panicked, and the trace holds
// the stack.
func TestHandlerPanicKitsokiRun(t *testing.T) {
	bin, dir := panicKitsoki(t)
	for _, c := range []struct{ intent, end, value, event string }{
		{"fg", "terminal failed", "boom", `"kind":"harness.returned"`},
		{"bg", "terminal done", "kaboom", `"kind":"scheduler.completed"`},
	} {
		t.Run(c.intent, func(t *testing.T) {
			code, out := exited(t, dir, bin, "run", "app.yaml", "--intent", c.intent)
			if code != exitFinding {
				t.Fatalf("exit %d, want %d:\n%s", code, exitFinding, out)
			}
			msg := "host.test.panic: the handler panicked: " + c.value + " (a kitsoki bug"
			if !strings.Contains(out, c.end) || !strings.Contains(out, "kitsoki: the run ended, but 1 handler call(s) panicked, a kitsoki bug: "+msg) {
				t.Errorf("output lacks %q or the panic:\n%s", c.end, out)
			}
			if strings.Contains(out, "goroutine ") {
				t.Errorf("a stack on the terminal:\n%s", out)
			}
			traces, _ := filepath.Glob(filepath.Join(dir, ".kitsoki", "sessions", "*.jsonl"))
			stacked := false
			for _, tr := range traces {
				b, err := os.ReadFile(tr)
				if err != nil {
					t.Fatal(err)
				}
				for line := range strings.Lines(string(b)) {
					if strings.Contains(line, c.event) && strings.Contains(line, msg) && strings.Contains(line, `"stack":"goroutine `) {
						stacked = true
					}
				}
			}
			if !stacked {
				t.Errorf("no %s event with the panic and its stack in %v", c.event, traces)
			}
		})
	}
}
