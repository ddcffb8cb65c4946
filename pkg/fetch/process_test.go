package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a second kitsoki process: with
// KITSOKI_FETCH_CHILD set it runs one Ensure and prints the result.
func TestMain(m *testing.M) {
	if os.Getenv("KITSOKI_FETCH_CHILD") == "1" {
		os.Exit(childMain())
	}
	os.Exit(m.Run())
}

func childMain() int {
	if s := os.Getenv("CHILD_FSIZE"); s != "" {
		n, _ := strconv.ParseUint(s, 10, 64)
		if err := limitFileSize(n); err != nil {
			fmt.Println("ERR", err)
			return 3
		}
	}
	p, err := LoadPins(os.Getenv("CHILD_PINS"))
	if err != nil {
		fmt.Println("ERR", err)
		return 2
	}
	a, err := p.Model(os.Getenv("CHILD_MODEL"))
	if err != nil {
		fmt.Println("ERR", err)
		return 2
	}
	f := &Fetcher{CacheDir: os.Getenv("CHILD_CACHE"), Parts: 1, Retries: 2, Backoff: 10 * time.Millisecond, StallTimeout: time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := f.Ensure(ctx, a, EnsureOptions{})
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	return 0
}

func childCmd(t *testing.T, pinsPath, cache, model string, extra ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "KITSOKI_FETCH_CHILD=1", "CHILD_PINS="+pinsPath, "CHILD_CACHE="+cache, "CHILD_MODEL="+model)
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

func overlayFor(t *testing.T, fs *fileServer, data []byte) string {
	return writeOverlay(t, fmt.Sprintf("models:\n  test-model:\n    id: test-model\n    url: %s\n    sha256: %s\n    size: %d\n", fs.url("m.gguf"), sum256(data), len(data)))
}

func TestTwoProcessesDownloadOnceAndBothSucceed(t *testing.T) {
	data := randomData(2<<20, 20)
	fs := newFileServer(t, data)
	fs.holdAt, fs.hold = 1<<20, make(chan struct{}) // the child's download waits mid-file for the parent
	overlay := overlayFor(t, fs, data)
	cache := t.TempDir()

	var out bytes.Buffer
	child := childCmd(t, overlay, cache, "test-model")
	child.Stdout = &out
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	for deadline := time.Now().Add(time.Minute); fs.sent.Load() == 0; { // a hang guard
		if time.Now().After(deadline) {
			t.Fatal("the child's download sent no byte in a minute (did it start?)")
		}
		time.Sleep(5 * time.Millisecond)
	}
	p, err := LoadPins(overlay)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("test-model")
	f := &Fetcher{CacheDir: cache, Parts: 1}
	var waited bool
	f.Progress = func(p Progress) {
		if p.Phase == PhaseWait && !waited {
			waited = true
			close(fs.hold) // the parent waits on the child's lock: let the child finish
		}
	}
	res := ensureOK(t, f, a)
	if err := child.Wait(); err != nil {
		t.Fatalf("child: %v: %s", err, out.String())
	}
	var childRes Result
	if err := json.Unmarshal(out.Bytes(), &childRes); err != nil {
		t.Fatalf("child output %q", out.String())
	}
	if !childRes.Downloaded || res.Downloaded || !waited {
		t.Fatalf("child downloaded=%v, parent downloaded=%v waited=%v", childRes.Downloaded, res.Downloaded, waited)
	}
	wantTraffic(t, fs, 1, int64(len(data)), "one download for both processes")
	wantContent(t, res.Path, data)
}

func TestWriteErrorMidFileIsReportedAndResumable(t *testing.T) {
	if !canLimitFileSize {
		t.Skip("RLIMIT_FSIZE is Linux-only here")
	}
	data := randomData(1<<20, 21)
	fs := newFileServer(t, data)
	overlay := overlayFor(t, fs, data)
	cache := t.TempDir()
	limit := 300 << 10
	out, err := childCmd(t, overlay, cache, "test-model", "CHILD_FSIZE="+strconv.Itoa(limit)).CombinedOutput()
	if err == nil {
		t.Fatalf("child succeeded past a %d-byte file size limit: %s", limit, out)
	}
	msg := string(out)
	for _, want := range []string{"test-model", "write ", "file too large", "free disk space", "resumes"} {
		if !strings.Contains(msg, want) {
			t.Errorf("child error %q lacks %q", msg, want)
		}
	}
	// Nothing half-written is in place; the next fetch resumes the part.
	p, _ := LoadPins(overlay)
	a, _ := p.Model("test-model")
	f := &Fetcher{CacheDir: cache, Parts: 1}
	dest, _ := f.Path(a)
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatal("half-written file in place")
	}
	res := ensureOK(t, f, a)
	if res.Resumed != int64(limit) {
		t.Fatalf("resumed %d bytes, want %d", res.Resumed, limit)
	}
}
