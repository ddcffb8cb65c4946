//go:build unix

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// TestEvalRunInterruptWritesNothing builds the real binary and the eval
// test plugin, starts eval run (-j 1) against a plugin that answers the
// first candidate's call and never the second's, sends
// SIGINT (then, run again, SIGTERM) once the call has reached the plugin,
// and checks: exit 130 (143 for SIGTERM), one line saying what was
// interrupted and how many calls had finished, no report file (not even
// a temporary one), and the plugin process is gone.
func TestEvalRunInterruptWritesNothing(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dir
	storytest.NeedGo(t)
	bin := buildKitsoki(t)
	plugin := buildTestBinary(t, "kitsoki/internal/testing/evalplugins/evalplugin")
	dir := t.TempDir()
	hangFile := filepath.Join(dir, "plugin.hang")
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": fmt.Sprintf(`app: {id: evint, version: 0.1.0}
agent_plugins:
  agent.plug:
    plugin: subprocess
    command: %q
    env: {EVAL_HANGFILE: %q}
`, plugin, hangFile) + evalPickStates,
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: [plug], models: {plug: [good, hang]}}\ncomparator: exact\nexamples: [{name: a, expect: {x: 1}}]\n",
	})
	for _, sig := range interruptSignals {
		os.Remove(hangFile)
		p := startProcess(t, "", bin, "eval", "run", "-j", "1", filepath.Join(dir, "evals", "pick.yaml"))
		// The plugin writes its pid when the call for the hanging model has
		// arrived: the interrupt lands while the call is in flight.
		pid := p.waitForPID(t, hangFile)
		if code := p.stop(t, sig.sig); code != sig.code || !strings.Contains(p.out.String(), "kitsoki: eval run interrupted by "+sig.name+": no report written (1 of 2 calls had finished; a long run can go in parts: --shard i/n, then kitsoki eval merge)\n") {
			t.Errorf("%v: exit %d, want %d:\n%s", sig.sig, code, sig.code, p.out.String())
		}
		if ents, err := os.ReadDir(filepath.Join(dir, "evals", "reports")); err == nil {
			t.Errorf("reports dir exists after interrupt: %v", ents)
		}
		if !waitFor(func() bool { return syscall.Kill(pid, 0) != nil }, time.Minute) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("plugin %d still running after eval run exited", pid)
		}
	}
}
