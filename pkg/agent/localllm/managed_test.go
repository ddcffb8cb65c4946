package localllm

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/llamastandin/standintest"
	"kitsoki/internal/testing/proctest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/sidecar"
	"kitsoki/pkg/story"
)

// Managed-mode tests. llama-server itself cannot run here, so the server
// is the llama-server STAND-IN (internal/testing/llamastandin), built by
// the test, packed into a llama.cpp-like release tar.gz (with SONAME
// symlinked fake libraries) and served with its real sha256 from a
// loopback HTTP server through a KITSOKI_PINS overlay; the cache is a
// fresh KITSOKI_CACHE_DIR. Nothing reaches the internet.

// ManagedLLMArtifacts is the loopback artifact server of managed-mode tests.
type ManagedLLMArtifacts = standintest.Artifacts

// standin builds the stand-in once for this test binary.
var standin standintest.Cache

// NewManagedLLMArtifacts packs the stand-in and serves it.
func NewManagedLLMArtifacts(t testing.TB) *ManagedLLMArtifacts {
	t.Helper()
	return standintest.ServeArtifacts(t, standin.Binary(t))
}

// managedEnv points the fetcher at the artifacts and a fresh cache, and
// records the stand-in's requests; it returns the record file.
func managedEnv(t *testing.T, a *ManagedLLMArtifacts) (cache, record string) {
	t.Helper()
	cache = t.TempDir()
	record = filepath.Join(t.TempDir(), "standin.jsonl")
	t.Setenv("KITSOKI_PINS", a.Pins)
	t.Setenv("KITSOKI_CACHE_DIR", cache)
	t.Setenv("KITSOKI_MIRROR", "")
	t.Setenv(standintest.EnvRecord, record)
	t.Setenv(standintest.EnvLoadMS, "50")
	if runtime.GOOS == "linux" {
		// The stand-in refuses to start unless the SONAME link resolves
		// through LD_LIBRARY_PATH, like the real dynamic loader.
		t.Setenv(standintest.EnvRequireLib, "libllama.so.0")
	}
	return cache, record
}

// fastTune polls health often; startup and grace are hang guards, not
// speed bounds: every stand-in here becomes healthy and exits on SIGTERM,
// and a test that counts the stand-in's signals needs its SIGTERM recorded
// before any SIGKILL.
var fastTune = serverTuning{startup: time.Minute, grace: time.Minute, interval: 20 * time.Millisecond}

func newManagedLocal(t *testing.T, p *story.AgentPlugin, tune serverTuning, disclose *strings.Builder) *localLLM {
	t.Helper()
	var w *syncWriter
	if disclose != nil {
		w = &syncWriter{b: disclose}
	}
	cfg := localLLMConfig{tune: tune}
	if w != nil {
		cfg.disclose = w
	}
	l, err := newLocalLLM(p, agent.BuildContext{StoryDir: t.TempDir(), Logger: discardLogger(), Redact: func(s string) string { return s }}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func standinEvents(t *testing.T, record, event string) []map[string]any {
	t.Helper()
	f, err := os.Open(record)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["event"] == event {
			out = append(out, m)
		}
	}
	return out
}

const decideSchema = `{"type":"object","required":["verdict"],"properties":{"verdict":{"enum":["approve","reject"]}}}`

func decideReq(id string) *agent.AskRequest {
	return &agent.AskRequest{Verb: "decide", Prompt: "approve?", Schema: []byte(decideSchema), CallID: id}
}

// The transport from an empty cache: download, verify, extract, spawn with
// the release directory on LD_LIBRARY_PATH, health, grammar-constrained
// answer; the second call shares the sidecar; Close stops it.
func TestManagedColdStartSharedSidecar(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	cache, record := managedEnv(t, a)
	var disclose strings.Builder
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model, Grammar: true}, fastTune, &disclose)
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Fatalf("construction touched the cache: %v", ents)
	}
	// Concurrent first calls: one fetch, one sidecar.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp, err := l.Ask(ctxFor(t), decideReq(fmt.Sprint(i)))
			if err == nil && string(resp.Submission) != `{"verdict":"approve"}` {
				err = fmt.Errorf("submission %s", resp.Submission)
			}
			errs[i] = err
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	starts := standinEvents(t, record, "start")
	if len(starts) != 1 {
		t.Fatalf("%d sidecars started, want 1", len(starts))
	}
	argv := fmt.Sprint(starts[0]["argv"])
	for _, want := range []string{"--host 127.0.0.1", "--parallel 4", "-m " + filepath.Join(cache, "models", a.Model+".gguf")} {
		if !strings.Contains(argv, want) {
			t.Errorf("argv %s lacks %q", argv, want)
		}
	}
	if runtime.GOOS == "linux" && !strings.Contains(fmt.Sprint(starts[0]["ld_library_path"]), filepath.Join(cache, "bin")) {
		t.Errorf("LD_LIBRARY_PATH %v", starts[0]["ld_library_path"])
	}
	out := disclose.String()
	if !strings.Contains(out, "downloading llama-server-standin (") || !strings.Contains(out, "downloading "+a.Model+" (") || !strings.Contains(out, "from 127.0.0.1:") {
		t.Errorf("download disclosure missing:\n%s", out)
	}
	// The request the sidecar saw: nested json_schema form, strict.
	var chats int
	for _, r := range standinEvents(t, record, "request") {
		if r["path"] == "/v1/chat/completions" {
			chats++
			b, _ := json.Marshal(r["body"])
			if !strings.Contains(string(b), `"response_format":{"json_schema":{"name":"submission","schema":`) || !strings.Contains(string(b), `"strict":true`) {
				t.Errorf("chat body %s", b)
			}
		}
	}
	if chats != 3 {
		t.Errorf("%d chat requests, want 3", chats)
	}
	pid := l.server.(*managedServer).pid()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !processReaped(pid) {
		t.Fatalf("sidecar %d still running after Close", pid)
	}
	if sig := standinEvents(t, record, "signal"); len(sig) != 1 || sig[0]["signal"] != "terminated" {
		t.Errorf("stop signals %v (want one SIGTERM)", sig)
	}
	if _, err := l.Ask(ctxFor(t), decideReq("late")); agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "already stopped") {
		t.Fatalf("Ask after Close: %v", err)
	}
}

// A sidecar that dies between calls is restarted by the next call.
func TestManagedServerCrashBetweenCalls(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	_, record := managedEnv(t, a)
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model, Grammar: true}, fastTune, nil)
	if _, err := l.Ask(ctxFor(t), decideReq("1")); err != nil {
		t.Fatal(err)
	}
	ms := l.server.(*managedServer)
	pid := ms.pid()
	p, _ := os.FindProcess(pid)
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if !processReaped(pid) {
		t.Fatal("killed sidecar not reaped")
	}
	resp, err := l.Ask(ctxFor(t), decideReq("2"))
	if err != nil {
		t.Fatalf("call after the crash: %v", err)
	}
	if string(resp.Submission) != `{"verdict":"approve"}` {
		t.Fatalf("submission %s", resp.Submission)
	}
	if n := len(standinEvents(t, record, "start")); n != 2 {
		t.Fatalf("%d starts, want 2 (restart after the crash)", n)
	}
	if ms.pid() == pid {
		t.Fatal("same pid after restart")
	}
}

// A server that never becomes healthy fails the call with the server's
// last output and is stopped; the next call tries again.
func TestManagedServerNeverHealthy(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	_, record := managedEnv(t, a)
	t.Setenv(standintest.EnvNeverHealthy, "1")
	tune := fastTune
	tune.startup = 2 * time.Second // named in the message; the wait ends once the server has answered /health
	tune.startupClock = func(time.Duration) <-chan time.Time { return afterNextHealthCheck(t, record) }
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model}, tune, nil)
	_, err := l.Ask(ctxFor(t), decideReq("1"))
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "not healthy after") || !strings.Contains(err.Error(), "server is listening") {
		t.Fatalf("got %v", err)
	}
	starts := standinEvents(t, record, "start")
	if len(starts) != 1 {
		t.Fatalf("%d starts", len(starts))
	}
	if pid := int(starts[0]["pid"].(float64)); !processReaped(pid) {
		t.Fatalf("unhealthy server %d left running", pid)
	}
	_, err = l.Ask(ctxFor(t), decideReq("2"))
	if agent.KindOf(err) != agent.KindTransportError || len(standinEvents(t, record, "start")) != 2 {
		t.Fatalf("second call: %v", err)
	}
}

// afterNextHealthCheck returns a channel that receives once the stand-in's
// record holds one more /health request than now: the server just started
// is listening and has answered (503, never healthy). A loaded machine only
// makes that later; the startup wait cannot end before the server's output
// says it is listening.
func afterNextHealthCheck(t *testing.T, record string) <-chan time.Time {
	health := func() int {
		n := 0
		for _, ev := range standinEvents(t, record, "request") {
			if ev["path"] == "/health" {
				n++
			}
		}
		return n
	}
	before := health()
	c := make(chan time.Time, 1)
	ctx := ctxFor(t)
	go func() {
		for ctx.Err() == nil && health() <= before {
			time.Sleep(10 * time.Millisecond)
		}
		c <- time.Now()
	}()
	return c
}

// server_bin: skips the binary fetch (only the weights are downloaded);
// port: is the port the sidecar binds; env: reaches the sidecar.
func TestManagedServerBinAndPort(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	cache, record := managedEnv(t, a)
	t.Setenv(standintest.EnvRequireLib, "")
	bin := standin.Binary(t)
	port := freeLoopbackPort(t)
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model, ServerBin: bin, Port: port,
		Env: map[string]string{standintest.EnvChatText: "hello from env:"}}, fastTune, nil)
	resp, err := l.Ask(ctxFor(t), &agent.AskRequest{Verb: "ask", Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Submission) != "hello from env:" {
		t.Fatalf("the declaration's env: did not reach the sidecar: %q", resp.Submission)
	}
	if ents, _ := os.ReadDir(filepath.Join(cache, "bin")); len(ents) != 0 {
		t.Fatalf("server_bin set, but the release was fetched: %v", ents)
	}
	argv := fmt.Sprint(standinEvents(t, record, "start")[0]["argv"])
	if !strings.Contains(argv, "--port "+strconv.Itoa(port)) {
		t.Fatalf("argv %s, want port %d", argv, port)
	}
}

// A prompt longer than one slot's context is refused by llama-server with a
// 400 that reports the slot's size; the error explains that the managed
// server's --parallel 4 gives each slot a quarter of the context.
func TestManagedPromptOverSlotContext(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	managedEnv(t, a)
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model,
		Env: map[string]string{standintest.EnvCtx: "400"}}, fastTune, nil)
	if _, err := l.Ask(ctxFor(t), &agent.AskRequest{Verb: "ask", Prompt: "short"}); err != nil {
		t.Fatalf("a prompt inside one slot failed: %v", err)
	}
	_, err := l.Ask(ctxFor(t), &agent.AskRequest{Verb: "ask", Prompt: strings.Repeat("word ", 200)})
	if agent.KindOf(err) != agent.KindTransportError {
		t.Fatalf("got %v, want transport_error", err)
	}
	for _, want := range []string{"http 400", "a slot holds 100", "--parallel 4", "endpoint:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// Unknown and unpinned models fail before any download, naming endpoint mode.
func TestManagedUnpinnedModel(t *testing.T) {
	a := NewManagedLLMArtifacts(t)
	managedEnv(t, a)
	for _, model := range []string{"no-such-model", "bge-small-en-v1.5"} {
		l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: model}, fastTune, nil)
		_, err := l.Ask(ctxFor(t), decideReq("1"))
		if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "endpoint: mode") {
			t.Fatalf("%s: %v", model, err)
		}
	}
	if a.Hits() != 0 {
		t.Fatalf("%d downloads for unpinned models", a.Hits())
	}
}

// Closing the registry while the first call is still fetching ends the
// fetch at once.
func TestManagedCloseDuringStart(t *testing.T) {
	proctest.CheckNoChildren(t)
	block := make(chan struct{})
	fetching := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case fetching <- struct{}{}:
		default:
		}
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	pins := filepath.Join(t.TempDir(), "pins.yaml")
	os.WriteFile(pins, []byte(fmt.Sprintf("models:\n  slow:\n    id: slow\n    url: %s/slow.gguf\n    sha256: %s\n    format: gguf\n", srv.URL, strings.Repeat("ab", 32))), 0o644)
	t.Setenv("KITSOKI_PINS", pins)
	t.Setenv("KITSOKI_CACHE_DIR", t.TempDir())
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: "slow", ServerBin: os.Args[0]}, fastTune, nil)
	done := make(chan error, 1)
	go func() {
		_, err := l.Ask(context.Background(), decideReq("1"))
		done <- err
	}()
	select { // the fetch is under way
	case <-fetching:
	case <-time.After(time.Minute):
		t.Fatal("the first call never started its fetch")
	}
	closed := make(chan struct{})
	go func() { l.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Close blocked behind a fetch")
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Ask succeeded after Close")
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Ask did not end after Close")
	}
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// processReaped waits until pid is gone entirely (not even a zombie).
func processReaped(pid int) bool {
	if pid == 0 {
		return false
	}
	if runtime.GOOS != "linux" {
		return true
	}
	deadline := time.Now().Add(time.Minute) // a hang guard
	for time.Now().Before(deadline) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// recoverFrom is what Ask calls when its request could not connect: it
// finds the crashed sidecar restarted (whether or not the crash had been
// noticed yet), and reports a live server as not restarted.
func TestManagedRecoverFromCrash(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	managedEnv(t, a)
	l := newManagedLocal(t, &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model}, fastTune, nil)
	ms := l.server.(*managedServer)
	base, err := ms.baseURL(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	// Alive: nothing to recover (after the notice wait).
	if _, restarted, err := ms.recoverFrom(ctxFor(t), base); restarted || err != nil {
		t.Fatalf("live server: restarted=%v err=%v", restarted, err)
	}
	pid := ms.pid()
	p, _ := os.FindProcess(pid)
	p.Kill()
	nb, restarted, err := ms.recoverFrom(ctxFor(t), base)
	if err != nil || !restarted || nb == "" || ms.pid() == pid {
		t.Fatalf("after a crash: %q restarted=%v err=%v", nb, restarted, err)
	}
	// A refused connection is a dial error (safe to resend); the chat
	// request after the restart works.
	_, derr := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader("{}"))
	if nb != base && !isDialError(derr) {
		t.Fatalf("refused connection not seen as a dial error: %v", derr)
	}
	if _, err := l.Ask(ctxFor(t), decideReq("after")); err != nil {
		t.Fatal(err)
	}
}

// pid is the running sidecar's process id (0 when none); tests use it.
func (m *managedServer) pid() int { return m.ofRunning((*sidecar.Sidecar).PID) }
