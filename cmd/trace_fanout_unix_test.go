//go:build unix

package cmd

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// peakRSS is the peak resident set of an exited child, in bytes. On Linux
// a child's figure includes the resident set of the process that started
// it (Go starts children sharing its memory until exec, and exec keeps the
// high-water mark), so a child of a large test process reads as large:
// runMeasured starts the binary from a small launcher process instead.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return -1
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) << 10
}

// writeFanOut writes dir/run.jsonl: n machine.say events whose text is the
// blob agent-prompts/<name> of size bytes (the blob itself is the
// caller's).
func writeFanOut(t *testing.T, dir, name string, size, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-01-01T00:00:01Z","kind":"machine.say","payload":{"text":{"$kitsoki_blob":"agent-prompts/%s","bytes":%d}}}`+"\n", i, name, size)
	}
	p := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// 300 references to one 20 MB blob: every trace reader stays under a small
// peak resident set (the existing engine's show reached 2.7 GB and
// crashed; the first version here 365 MB), measured on the real binary.
func TestTraceBlobFanOutMemory(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "agent-prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	const size = 20 << 20
	if err := os.WriteFile(filepath.Join(dir, "agent-prompts", "blob-big.txt"), bytes.Repeat([]byte("x"), size), 0o644); err != nil {
		t.Fatal(err)
	}
	p := writeFanOut(t, dir, "blob-big.txt", size, 300)
	const bound = 96 << 20
	for _, args := range [][]string{{"show", p}, {"show", "--turn", "1", "--width", "400", p}, {"stats", p}, {"calls", p}, {"verify", p}} {
		out, rss := runMeasured(t, bin, append([]string{"trace"}, args...)...)
		if rss > bound {
			t.Errorf("trace %v: peak RSS %d MiB, over %d MiB", args, rss>>20, bound>>20)
		}
		if out.Len() > 1<<20 {
			t.Errorf("trace %v printed %d bytes", args, out.Len())
		}
	}
}

// rssLauncherEnv names the file a launcher process writes its child's peak
// resident set to; set, TestRSSLauncher is that launcher.
const rssLauncherEnv = "KITSOKI_TEST_RSS_REPORT"

// runMeasured runs bin with args through a launcher (this test binary,
// re-executed as TestRSSLauncher) and returns the combined output and the
// child's own peak resident set in bytes. A failed run fails the test.
func runMeasured(t *testing.T, bin string, args ...string) (*bytes.Buffer, int64) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "rss")
	launcher := exec.Command(os.Args[0], append([]string{"-test.run=^TestRSSLauncher$", "--", bin}, args...)...)
	launcher.Env = append(os.Environ(), rssLauncherEnv+"="+report)
	var out bytes.Buffer
	launcher.Stdout, launcher.Stderr = &out, &out
	err := launcher.Run()
	got, rerr := os.ReadFile(report)
	if err != nil || rerr != nil {
		t.Fatalf("%s %v: %v %v\n%.2000s", filepath.Base(bin), args, err, rerr, out.String())
	}
	var rss int64
	if _, err := fmt.Sscan(string(got), &rss); err != nil {
		t.Fatalf("launcher report %q: %v", got, err)
	}
	return &out, rss
}

// TestRSSLauncher is runMeasured's launcher, a no-op in a normal run: it
// runs the command after "--" and writes its peak resident set to the
// report file (the command failing writes nothing).
func TestRSSLauncher(t *testing.T) {
	report := os.Getenv(rssLauncherEnv)
	if report == "" {
		t.Skip("the launcher for runMeasured; runs only when re-executed by it")
	}
	args := flag.Args()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if err := os.WriteFile(report, []byte(fmt.Sprint(peakRSS(cmd.ProcessState))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A blob that is a symlink to a secret is refused by trace show, which
// names the reference and prints nothing of the target.
func TestTraceShowBlobSymlink(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	base := t.TempDir()
	secret := filepath.Join(base, "home", "id_rsa")
	const canary = "SECRET-CANARY-0e77d2"
	if err := os.MkdirAll(filepath.Dir(secret), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secret, []byte(canary), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "t", "agent-prompts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "blob-s.txt")); err != nil {
		t.Fatal(err)
	}
	p := writeFanOut(t, filepath.Dir(dir), "blob-s.txt", len(canary), 1)
	for _, args := range [][]string{{"show", p}, {"show", "--prompts", "--width", "1000", p}, {"verify", p}} {
		cmd := exec.Command(bin, append([]string{"trace"}, args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if err == nil || strings.Contains(out.String(), canary) || strings.Contains(out.String(), "home/id_rsa") || !strings.Contains(out.String(), "agent-prompts/blob-s.txt") || !strings.Contains(out.String(), "symlink") {
			t.Fatalf("trace %v: %v\n%s", args, err, out.String())
		}
	}
}
