package agent

// Test helpers shared by the transport tests (package agent) and the
// conformance suite (package agent_test): they are exported from a _test
// file, so they exist only in test builds.

import (
	"os"
	"sync"
	"testing"

	"kitsoki/internal/testing/proctest"
	"kitsoki/internal/testing/storytest"
)

// testPlugins are the Go programs under internal/testing/agentplugins, each built
// once per test binary on first use; TestMain removes them.
var testPlugins = map[string]*storytest.Programs{
	"echoagent":  {Pkgs: []string{"kitsoki/internal/testing/agentplugins/echoagent"}},
	"fakeclaude": {Pkgs: []string{"kitsoki/internal/testing/agentplugins/fakeclaude"}},
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, p := range testPlugins {
		p.Remove()
	}
	os.Exit(code)
}

// BuildTestPlugin returns the Go program internal/testing/agentplugins/<name>
// (echoagent, fakeclaude), built once per test binary: a test must not
// change or remove it.
func BuildTestPlugin(t testing.TB, name string) string {
	t.Helper()
	p, ok := testPlugins[name]
	if !ok {
		t.Fatalf("BuildTestPlugin: no test plugin %q", name)
	}
	return p.Path(t, name)
}

// The child-process checks of internal/testing/proctest, under the names
// this package's tests use.
var (
	ChildProcesses  = proctest.ChildProcesses
	ProcessGone     = proctest.Gone
	CheckNoChildren = proctest.CheckNoChildren
)

// WaitForFile waits until path exists (a plugin's marker that it got
// that far), bounded by a hang guard that only a failure reaches.
func WaitForFile(t testing.TB, path string) {
	t.Helper()
	proctest.Eventually(t, path+" to appear", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// WaitNoError waits for wg, then closes errs (which the goroutines of wg
// send on) and fails t at the first non-nil error.
func WaitNoError(t testing.TB, wg *sync.WaitGroup, errs chan error) {
	t.Helper()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// SyncBuffer is a goroutine-safe log or output sink the test reads while
// a transport writes it.
type SyncBuffer = storytest.SyncBuffer
