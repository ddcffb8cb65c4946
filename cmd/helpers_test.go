package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// The helpers the command tests share: the in-process command line, built
// programs, and real processes waited on by condition (never by a sleep).

// runCmd runs the command line args in process and returns its exit code
// and what it wrote to stdout and stderr.
func runCmd(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// writeStory writes body as the app.yaml of a fresh story folder and
// returns the folder.
func writeStory(t *testing.T, body string) string {
	t.Helper()
	return storytest.TempTree(t, map[string]string{"app.yaml": body})
}

// programs are the kitsoki binary and the repository's test programs, built
// on first use (most command tests only run kitsoki in process) and removed
// by TestMain. A run that needs one needs nearly all, so the first use builds
// them all in one go build: one package load and one link per program, the
// links running side by side, instead of a go command per program.
var programs = &storytest.Programs{Pkgs: []string{
	"kitsoki",
	"kitsoki/examples/plugins/triage-agent",
	"kitsoki/internal/testing/leakyplugin",
	"kitsoki/internal/testing/agentplugins/echoagent",
	"kitsoki/internal/testing/evalplugins/evalplugin",
	"kitsoki/internal/testing/claudestandin",
	"kitsoki/internal/testing/hookplugins/testhook",
	"kitsoki/internal/testing/llamastandin", // the llama-server stand-in (the real server cannot run here)
}}

func TestMain(m *testing.M) {
	if os.Getenv(asKitsokiEnv) == "1" {
		os.Exit(runAsKitsoki())
	}
	removeConfig := storytest.EmptyConfigDir()
	code := m.Run()
	programs.Remove()
	removeConfig()
	os.Exit(code)
}

// buildKitsoki returns the kitsoki binary, built once per test binary. A
// test must not change or remove it.
func buildKitsoki(t *testing.T) string {
	t.Helper()
	return buildTestBinary(t, "kitsoki")
}

// buildKitsokiUnlessShort skips the test under -short (building the binary
// takes a while), else returns the shared kitsoki binary.
func buildKitsokiUnlessShort(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the kitsoki binary")
	}
	return buildKitsoki(t)
}

// buildTestBinary returns one of the repository's programs (listed in
// programs), built once per test binary. A test must not change or
// remove it.
func buildTestBinary(t testing.TB, pkg string) string {
	t.Helper()
	if !slices.Contains(programs.Pkgs, pkg) {
		t.Fatalf("buildTestBinary: %s is not in cmd's programs list", pkg)
	}
	return programs.Path(t, path.Base(pkg))
}

// echoAgent builds the echo test agent, a real subprocess plugin whose
// with: fault key picks its behaviour (echo_request, hang, ...).
func echoAgent(t *testing.T) string {
	t.Helper()
	return buildTestBinary(t, "kitsoki/internal/testing/agentplugins/echoagent")
}

// waitFor polls cond until it holds or the bound passes (a bound on a
// broken run, not a timing assumption: a slow machine only takes longer).
func waitFor(cond func() bool, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(2 * time.Millisecond) // poll interval, not a wait for an outcome
	}
	return cond()
}

// process is a program under test started with its combined output
// captured; the test's cleanup kills it if it is still running.
type process struct {
	cmd    *exec.Cmd
	out    storytest.SyncBuffer
	exited chan struct{}
}

// startProcess starts bin with args (in dir when not empty).
func startProcess(t *testing.T, dir, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), exited: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.exited })
	return p
}

// waitUntil waits for cond, failing the test when the process exits first
// or the bound passes.
func (p *process) waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	exitedFirst := false
	ok := waitFor(func() bool {
		select {
		case <-p.exited:
			exitedFirst = true
			return true
		default:
		}
		return cond()
	}, 2*time.Minute)
	if exitedFirst && !cond() {
		t.Fatalf("%s exited before %s:\n%s", p.cmd.Path, what, p.out.String())
	}
	if !ok {
		t.Fatalf("%s: never %s:\n%s", p.cmd.Path, what, p.out.String())
	}
}

// waitForPID waits until a child of the process wrote its pid, one line,
// to path, and returns it.
func (p *process) waitForPID(t *testing.T, path string) int {
	t.Helper()
	var pid int
	p.waitUntil(t, "its child started", func() bool {
		b, err := os.ReadFile(path)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	return pid
}

// stop sends sig and waits (bounded) for the process to exit; it returns
// the exit code (-1 for a death by signal).
func (p *process) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not stop on %v:\n%s", p.cmd.Path, sig, p.out.String())
	}
	return p.cmd.ProcessState.ExitCode()
}
