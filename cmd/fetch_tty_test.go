//go:build linux

package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFetchOnTerminalProgressAndCtrlC runs the real binary on a
// pseudo-terminal against a loopback server that sends the first MiB and
// then holds the connection: the status line (the progressbar library's bar, speed, time left) is drawn in
// place, Ctrl-C exits 130 with the message on a line of its own and the
// resume command, and running that command again resumes (only the rest
// is sent) and verifies.
func TestFetchOnTerminalProgressAndCtrlC(t *testing.T) {
	t.Parallel() // only its own subprocesses, terminal and servers
	bin := buildKitsokiUnlessShort(t)
	data := bytes.Repeat([]byte("kitsoki-weights."), 512<<10) // 8 MiB
	var requests atomic.Int32
	var resumedFrom atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		start := 0
		w.Header().Set("Accept-Ranges", "bytes") // as release hosts do: a cut download can resume
		if rng := r.Header.Get("Range"); rng != "" {
			s, _, _ := strings.Cut(strings.TrimPrefix(rng, "bytes="), "-")
			start, _ = strconv.Atoi(s)
			resumedFrom.Store(int64(start))
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(data)-1, len(data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(data)-start))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		}
		if n == 1 { // first request: one MiB, then hold the line until the client leaves
			w.Write(data[:1<<20])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Write(data[start:])
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	sum := sha256.Sum256(data)
	overlay := filepath.Join(t.TempDir(), "pins.yaml")
	os.WriteFile(overlay, []byte(fmt.Sprintf("models:\n  big:\n    id: big\n    url: %s/big.gguf\n    sha256: %s\n    size: %d\n", srv.URL, hex.EncodeToString(sum[:]), len(data))), 0o644)
	cache := t.TempDir()

	p := startOnPTY(t, bin, nil, "fetch-models", "big", "--pins", overlay, "--cache-dir", cache)
	p.waitFor(t, "a status line with speed and ETA", func(raw string) bool {
		return strings.Contains(raw, "%") && strings.Contains(raw, "MB/s") && strings.Contains(raw, "s:")
	})
	lines := screen(p.raw())
	if l, ok := lineStartingWith(lines, "big "); !ok || !strings.Contains(l, "% |") || !strings.Contains(l, "/8.4 MB") {
		t.Fatalf("no status line drawn in place: %q", lines)
	}
	p.master.Write([]byte{3}) // Ctrl-C, through the terminal's line discipline
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d after Ctrl-C, want 130; terminal:\n%q", code, p.raw())
	}
	lines = screen(p.raw())
	t.Logf("terminal after Ctrl-C:\n%s", strings.Join(lines, "\n"))
	msg, ok := lineStartingWith(lines, "kitsoki: interrupted by Ctrl-C (SIGINT): ")
	if !ok || !strings.Contains(msg, "partial download is kept") {
		t.Fatalf("interrupt message not on a line of its own: %q", lines)
	}
	hint, ok := lineStartingWith(lines, "kitsoki: to resume, run: kitsoki fetch-models big --pins=")
	if !ok || !strings.Contains(hint, "--cache-dir="+cache) {
		t.Fatalf("no resume hint: %q", lines)
	}
	if _, ok := lineStartingWith(lines, "big "); ok {
		t.Fatalf("the status line was left on screen: %q", lines)
	}

	// The hint, run as is (not on a terminal now), resumes.
	words := strings.Fields(strings.TrimPrefix(hint, "kitsoki: to resume, run: kitsoki "))
	var errb bytes.Buffer
	cmd := exec.Command(bin, words...)
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, errb.String())
	}
	if resumedFrom.Load() <= 0 || !strings.Contains(errb.String(), "already on disk") || !strings.Contains(string(out), "big ready (downloaded)") {
		t.Fatalf("did not resume (from %d): %s\n%s", resumedFrom.Load(), errb.String(), out)
	}
	if strings.Contains(errb.String(), "\r") || strings.Contains(errb.String(), "\x1b[") {
		t.Fatalf("terminal control sequences off a terminal: %q", errb.String())
	}
	if got, _ := os.ReadFile(filepath.Join(cache, "models", "big.gguf")); !bytes.Equal(got, data) {
		t.Fatal("resumed file differs")
	}

	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	// Exit codes of the binary: a bad $KITSOKI_MIRROR is a usage error
	// like a bad --mirror (2); a 404 is a failed download (1).
	for _, c := range []struct {
		env  []string
		args []string
		want int
	}{
		{[]string{"KITSOKI_MIRROR=ftp://mirror.example"}, nil, 2},
		{nil, []string{"--mirror", "ftp://mirror.example"}, 2},
		{nil, []string{"--mirror", notFound.URL, "--force"}, 1},
	} {
		cmd := exec.Command(bin, append([]string{"fetch-models", "big", "--pins", overlay, "--cache-dir", cache}, c.args...)...)
		cmd.Env = append(os.Environ(), c.env...)
		out, _ := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != c.want {
			t.Errorf("%v %v: exit %d, want %d\n%s", c.env, c.args, got, c.want, out)
		}
		if c.want == 1 && !strings.Contains(string(out), "(the cached file is kept)") {
			t.Errorf("failed --force does not say the cached file is kept:\n%s", out)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(cache, "models", "big.gguf")); !bytes.Equal(got, data) {
		t.Fatal("a failed --force lost the cached file")
	}
}
