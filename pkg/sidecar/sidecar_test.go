//go:build unix

package sidecar

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/llamastandin/standintest"
)

// standin is the llama-server STAND-IN built once for this test binary:
// the real llama-server cannot run on test machines.
var standin string

func TestMain(m *testing.M) {
	if os.Getenv("SIDECAR_CHILD") == "1" {
		os.Exit(childMain())
	}
	dir, err := os.MkdirTemp("", "standin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	standin, err = standintest.BuildTo(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type event struct {
	Event         string          `json:"event"`
	Argv          []string        `json:"argv"`
	LDLibraryPath string          `json:"ld_library_path"`
	PID           int             `json:"pid"`
	Path          string          `json:"path"`
	Ready         bool            `json:"ready"`
	Signal        string          `json:"signal"`
	Body          json.RawMessage `json:"body"`
}

func readEvents(t *testing.T, path string) []event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("record line %q: %v", sc.Text(), err)
		}
		evs = append(evs, e)
	}
	return evs
}

// setup returns a config running the stand-in with a model file and a
// request record.
func setup(t *testing.T, env ...string) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	model := filepath.Join(dir, "model.gguf")
	os.WriteFile(model, []byte("GGUF stand-in"), 0o644)
	record := filepath.Join(dir, "record.jsonl")
	cfg := Config{
		Bin: standin, Model: model, LibDir: dir,
		Env: append([]string{standintest.EnvRecord + "=" + record, standintest.EnvLoadMS + "=300"}, env...),
		// StartupTimeout and StopGrace are hang guards: the stand-in becomes
		// healthy and exits on SIGTERM by itself, and a test that reads its
		// exit record needs it written before any SIGKILL.
		StartupTimeout: time.Minute, StopGrace: time.Minute, HealthInterval: 20 * time.Millisecond,
	}
	return cfg, record
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// alive reports whether pid is a live (non-zombie) process.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		if i := bytes.LastIndexByte(b, ')'); i > 0 && len(b) > i+2 && b[i+2] == 'Z' {
			return false
		}
	}
	return true
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // a hang guard, as long as ctxT's
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func chat(t *testing.T, url string, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestStartHealthGatesArgvEnvAndStop(t *testing.T) {
	cfg, record := setup(t, standintest.EnvRequireLib+"=libllama.so.0")
	// The release directory holds a SONAME link, as an extracted release does.
	os.WriteFile(filepath.Join(cfg.LibDir, "libllama.so.0.0.9444"), []byte("lib"), 0o644)
	os.Symlink("libllama.so.0.0.9444", filepath.Join(cfg.LibDir, "libllama.so.0"))
	t.Setenv("LD_LIBRARY_PATH", "/opt/elsewhere")
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	// Healthy on return: the first chat is answered.
	code, body := chat(t, s.URL(), `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if code != 200 || !strings.Contains(body, "stand-in answer") {
		t.Fatalf("chat: %d %s", code, body)
	}
	evs := readEvents(t, record)
	start := evs[0]
	port := strings.TrimPrefix(s.URL(), "http://127.0.0.1:")
	// The existing engine's order (reference/fetch-sidecar.md §6.2): a
	// server_bin wrapper script reading its arguments sees the same argv.
	want := []string{"-m", cfg.Model, "--port", port, "--parallel", "4", "--host", "127.0.0.1"}
	if strings.Join(start.Argv, " ") != strings.Join(want, " ") {
		t.Fatalf("argv %q, want %q", start.Argv, want)
	}
	if runtime.GOOS == "linux" && start.LDLibraryPath != cfg.LibDir+":/opt/elsewhere" {
		t.Fatalf("LD_LIBRARY_PATH %q", start.LDLibraryPath)
	}
	var loading, healthy int
	for _, e := range evs {
		if e.Path == "/health" {
			if e.Ready {
				healthy++
			} else {
				loading++
			}
		}
	}
	if loading == 0 || healthy != 1 {
		t.Fatalf("health polls: %d loading, %d healthy", loading, healthy)
	}
	pid := s.PID()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	waitDead(t, pid)
	evs = readEvents(t, record)
	if last := evs[len(evs)-1]; last.Event != "exit" || evs[len(evs)-2].Signal != "terminated" {
		t.Fatalf("server did not exit on SIGTERM: %+v", evs[len(evs)-2:])
	}
	if s.URL() != "" || s.Stop() != nil {
		t.Fatal("Stop not idempotent")
	}
	if err := s.Ensure(ctxT(t)); err == nil {
		t.Fatal("Ensure after Stop restarted the server")
	}
}

func TestEmbeddingSidecarArgs(t *testing.T) {
	cfg, record := setup(t)
	cfg.Embeddings, cfg.Parallel = true, 2
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	argv := strings.Join(readEvents(t, record)[0].Argv, " ")
	if !strings.HasSuffix(argv, "--parallel 2 --host 127.0.0.1 --embeddings --pooling mean") {
		t.Fatalf("argv %q", argv)
	}
	resp, err := http.Post(s.URL()+"/v1/embeddings", "application/json", strings.NewReader(`{"model":"m","input":["a","b"]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data []struct {
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if len(out.Data) != 2 || len(out.Data[0].Embedding) != 768 {
		t.Fatalf("embeddings %d", len(out.Data))
	}
}

func TestCrashedServerRestartsOnNextEnsure(t *testing.T) {
	cfg, _ := setup(t)
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if err := s.Ensure(ctxT(t)); err != nil || s.Restarts() != 0 {
		t.Fatalf("healthy server restarted: %v", err)
	}
	pid := s.PID()
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	syscall.Kill(pid, syscall.SIGKILL) // the crash, between two calls
	<-p.Done()
	if err := s.Ensure(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if s.PID() == pid || s.Restarts() != 1 {
		t.Fatalf("pid %d -> %d, restarts %d", pid, s.PID(), s.Restarts())
	}
	if code, _ := chat(t, s.URL(), `{"model":"m","messages":[{"role":"user","content":"again"}]}`); code != 200 {
		t.Fatalf("after restart: %d", code)
	}
}

// The startup timeout ends the wait once the server has answered a health
// check (stand-in's record), whatever the machine's load: the message
// names the 503 and the server's output.
func TestNeverHealthyTimesOutWithOutputAndKillsServer(t *testing.T) {
	cfg, record := setup(t, standintest.EnvNeverHealthy+"=1")
	cfg.StartupTimeout = 400 * time.Millisecond
	cfg.StartupClock = func(time.Duration) <-chan time.Time { return afterHealthCheck(t, record) }
	_, err := Start(ctxT(t), cfg)
	if err == nil {
		t.Fatal("never-healthy server accepted")
	}
	for _, want := range []string{"not healthy after 400ms", `http 503 "Loading model"`, "server is listening", "attach with endpoint:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	waitDead(t, readEvents(t, record)[0].PID)
}

func TestEarlyExitReportsServerOutput(t *testing.T) {
	cfg, _ := setup(t)
	cfg.Model = filepath.Join(t.TempDir(), "missing.gguf")
	_, err := Start(ctxT(t), cfg)
	if err == nil || !strings.Contains(err.Error(), "exited before it became healthy") || !strings.Contains(err.Error(), "error loading model") {
		t.Fatalf("err = %v", err)
	}
	cfg, _ = setup(t, standintest.EnvRequireLib+"=libmissing.so.0")
	_, err = Start(ctxT(t), cfg)
	if err == nil || !strings.Contains(err.Error(), "libmissing.so.0: cannot open shared object file") {
		t.Fatalf("err = %v", err)
	}
	cfg.Bin = filepath.Join(t.TempDir(), "no-such-server")
	if _, err = Start(ctxT(t), cfg); err == nil || !strings.Contains(err.Error(), "fetch-llama-server") {
		t.Fatalf("err = %v", err)
	}
}

// afterHealthCheck returns a channel that receives once the server's
// record shows a /health request (polled; the test's ctxT bounds it).
func afterHealthCheck(t *testing.T, record string) <-chan time.Time {
	c := make(chan time.Time, 1)
	ctx := ctxT(t)
	go func() {
		for ctx.Err() == nil {
			if b, _ := os.ReadFile(record); bytes.Contains(b, []byte(`"/health"`)) {
				c <- time.Now()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return c
}

func TestCancelDuringStartupStopsServer(t *testing.T) {
	cfg, record := setup(t, standintest.EnvNeverHealthy+"=1")
	ctx, cancel := context.WithCancel(ctxT(t))
	checked := afterHealthCheck(t, record)
	go func() {
		<-checked
		cancel()
	}()
	_, err := Start(ctx, cfg)
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("err = %v", err)
	}
	waitDead(t, readEvents(t, record)[0].PID)
}

// A server that ignores SIGTERM is killed after the grace. The verdict is
// Stop's own account (SIGTERM sent, grace over, then SIGKILL), not the
// stand-in's record of the SIGTERM: a loaded machine may kill it before it
// writes that line.
func TestStopEscalatesToSIGKILL(t *testing.T) {
	cfg, _ := setup(t, standintest.EnvIgnoreTerm+"=1")
	cfg.StopGrace = 200 * time.Millisecond
	var log bytes.Buffer
	cfg.Logger = slog.New(slog.NewTextHandler(&log, nil))
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	pid := s.PID()
	s.Stop()
	waitDead(t, pid)
	if !strings.Contains(log.String(), "llama-server ignored SIGTERM; killed it") {
		t.Fatalf("no escalation logged:\n%s", log.String())
	}
}

func TestConfiguredPortAndParallel(t *testing.T) {
	cfg, record := setup(t)
	port, err := freePort("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port, cfg.Parallel = port, 8
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if s.URL() != "http://127.0.0.1:"+strconv.Itoa(port) {
		t.Fatalf("url %s", s.URL())
	}
	if argv := strings.Join(readEvents(t, record)[0].Argv, " "); !strings.Contains(argv, "--parallel 8") {
		t.Fatalf("argv %q", argv)
	}
}

// childMain starts a sidecar, prints the server's pid and blocks: the
// test kills this process hard and checks the server does not survive it.
func childMain() int {
	cfg := Config{Bin: os.Getenv("CHILD_BIN"), Model: os.Getenv("CHILD_MODEL"), StartupTimeout: time.Minute}
	s, err := Start(context.Background(), cfg)
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	fmt.Println(s.PID())
	select {}
}

func TestNoOrphanWhenKitsokiIsKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parent-death signal is Linux-only")
	}
	cfg, _ := setup(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SIDECAR_CHILD=1", "CHILD_BIN="+cfg.Bin, "CHILD_MODEL="+cfg.Model)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("child said %q", line)
	}
	if !alive(pid) {
		t.Fatal("server not running under the child")
	}
	cmd.Process.Kill() // SIGKILL: no chance to run Stop
	cmd.Wait()
	waitDead(t, pid)
}

// A binary that cannot be executed fails with the existing engine's words
// ("spawn server"), naming the file and the fix.
func TestSpawnErrorNamesTheBinary(t *testing.T) {
	cfg, _ := setup(t)
	cfg.Bin = filepath.Join(t.TempDir(), "llama-server")
	os.WriteFile(cfg.Bin, []byte("not a program"), 0o644)
	_, err := Start(ctxT(t), cfg)
	if err == nil || !strings.Contains(err.Error(), "spawn server "+cfg.Bin+": ") || !strings.Contains(err.Error(), "server_bin") {
		t.Fatalf("err = %v", err)
	}
}
