package agent

// Test helpers shared by the transport tests (package agent) and the
// conformance suite (package agent_test): they are exported from a _test
// file, so they exist only in test builds.

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"kitsoki/internal/testing/proctest"
	"kitsoki/internal/testing/storytest"
)

// BuildTestPlugin compiles the Go program internal/testplugins/<name> into
// t.TempDir() with `go build` and returns the executable's path.
func BuildTestPlugin(t testing.TB, name string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "go"
	}
	out := filepath.Join(t.TempDir(), name)
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command(goBin, "build", "-o", out, "./internal/testplugins/"+name)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
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
