package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// openFDs is how many descriptors this process holds.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents)
}

// kitsoki test run again and again in one process — a hook process
// started for each run, a real host.run, a cassette-answered agent call, a
// per-fixture trace — holds no more descriptors or goroutines after the
// runs than before: one kept per fixture or per plugin start would add up
// to rounds×fixtures here (and exhaust `ulimit -n` on a big corpus). A
// file only the garbage collector would close counts as let go.
func TestRepeatedTestRunsLeakNoDescriptor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	storytest.NeedGo(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	files := onePathFiles(echoAgent(t))
	files[".kitsoki/plugins/spy/manifest.yaml"] = fmt.Sprintf("id: spy\nhooks: [{point: agent/pre-dispatch}]\nentry: {command: %q, args: [record-env, X, %q]}\n", hook, filepath.Join(t.TempDir(), "env"))
	for i := range 4 {
		files[fmt.Sprintf("run/flows/r%d.yaml", i)] = "test_kind: flow\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\n" +
			"turns:\n  - intent: go\n    expect_state: done\n    expect_world: {out: \"started\\n\"}\n"
	}
	files["run/app.yaml"] = `app: { id: bg, version: 0.1.0 }
hosts: [host.run]
world:
  out: { type: string, default: "" }
intents:
  go: { description: go }
root: start
states:
  start:
    on:
      go: [ { target: done } ]
  done:
    description: ran
    on_enter:
      - invoke: host.run
        with: { cmd: "echo started" }
        bind: { out: stdout }
`
	_, repo := operatorTree(t, "", files)
	traces := t.TempDir()
	round := func() {
		t.Helper()
		for _, app := range []string{repo, filepath.Join(repo, "run")} {
			if code, out, errOut := runCmd(t, "test", app, "-j", "4", "--trace-dir", traces); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
		}
	}
	round() // first use opens what stays open for the process (caches, pools)
	runtime.GC()
	before := openFDs(t)
	g0 := runtime.NumGoroutine()
	for range 5 {
		round()
	}
	// A descriptor or goroutine a run let go of may still be ending in a
	// goroutine the run ended: wait for the counts to come back, bounded.
	after, g := openFDs(t), runtime.NumGoroutine()
	for deadline := time.Now().Add(30 * time.Second); (after > before || g > g0) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // poll interval
		runtime.GC()
		after, g = openFDs(t), runtime.NumGoroutine()
	}
	if after > before || g > g0 {
		t.Errorf("after 5 rounds: descriptors %d → %d, goroutines %d → %d", before, after, g0, g)
	}
}
