//go:build unix

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// peakRSS is the peak resident set of an exited child, in bytes.
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
	for i := 0; i < n; i++ {
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
		cmd := exec.Command(bin, append([]string{"trace"}, args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("trace %v: %v\n%.2000s", args, err, out.String())
		}
		if rss := peakRSS(cmd.ProcessState); rss > bound {
			t.Errorf("trace %v: peak RSS %d MiB, over %d MiB", args, rss>>20, bound>>20)
		}
		if out.Len() > 1<<20 {
			t.Errorf("trace %v printed %d bytes", args, out.Len())
		}
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
