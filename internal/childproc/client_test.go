package childproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/proc"
	"kitsoki/internal/testing/proctest"
	"kitsoki/internal/testing/storytest"
)

const secret = "hunter2-planted"

type fixture struct {
	c   *Client
	log *storytest.SyncBuffer
}

// newClient starts nothing: a client for the childroles program in role
// (internal/testing/childroles), with secret masked and a debug log the
// test reads.
func newClient(t *testing.T, role string, edit func(*Config)) fixture {
	t.Helper()
	proctest.CheckNoChildren(t)
	log := &storytest.SyncBuffer{}
	cfg := Config{
		Who:     "test child",
		Command: rolesBin(t),
		Policy: proc.Policy{
			Env:       proc.Env{Policy: proc.EnvInherit, Vars: proc.Set(map[string]string{roleEnv: role, "CHILD_SECRET": secret})},
			TermGrace: time.Second,
			WaitDelay: time.Second,
		},
		StartHint: "fix the command",
		Redact:    func(s string) string { return strings.ReplaceAll(s, secret, "[MASKED]") },
		Log:       slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		LogName:   "test child",
		LogAttrs:  []any{"who", "t"},
	}
	if edit != nil {
		edit(&cfg)
	}
	c := New(cfg)
	t.Cleanup(func() { c.Close() })
	return fixture{c: c, log: log}
}

// call sends req and returns the answer line.
func call(ctx context.Context, c *Client, req string) (string, error) {
	var got string
	err := c.Call(ctx, Request{Frame: []byte(req), Decode: func(line []byte) error {
		got = string(line)
		return nil
	}})
	return got, err
}

func mustCall(t *testing.T, c *Client, req string) string {
	t.Helper()
	got, err := call(context.Background(), c, req)
	if err != nil {
		t.Fatalf("%s: %v", req, err)
	}
	return got
}

func mustFail(t *testing.T, err error, f Failure, parts ...string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error with failure %d, got %T %v", f, err, err)
	}
	if e.Failure != f {
		t.Fatalf("failure %d, want %d: %v", e.Failure, f, e)
	}
	for _, p := range parts {
		if !strings.Contains(e.Error(), p) {
			t.Errorf("error lacks %q:\n%s", p, e)
		}
	}
	if strings.Contains(e.Error(), secret) {
		t.Errorf("secret in the error:\n%s", e)
	}
	return e
}

func pidOf(t *testing.T, answer string) int {
	t.Helper()
	var pid, n int
	if _, err := fmt.Sscanf(answer, "pid=%d n=%d", &pid, &n); err != nil {
		t.Fatalf("answer %q: %v", answer, err)
	}
	return pid
}

func TestAnswersAndReusesChild(t *testing.T) {
	f := newClient(t, "requests", nil)
	a1, a2 := mustCall(t, f.c, "pid"), mustCall(t, f.c, "pid")
	if pidOf(t, a1) != pidOf(t, a2) || !strings.HasSuffix(a2, "n=2") {
		t.Fatalf("not one reused child: %q then %q", a1, a2)
	}
	if got := mustCall(t, f.c, `{"a":"b"}`); got != `{"a":"b"}` {
		t.Fatalf("echo %q", got)
	}
	if !strings.Contains(f.log.String(), "test child started") {
		t.Fatalf("no start line in the log:\n%s", f.log)
	}
}

func TestCrashNamesExitStatusAndStderr(t *testing.T) {
	f := newClient(t, "requests", nil)
	first := pidOf(t, mustCall(t, f.c, "pid"))
	_, err := call(context.Background(), f.c, "crash")
	e := mustFail(t, err, Exited, "test child exited before answering", "exit status 3", "the next call starts a new process", "stderr (last 8 KiB):\nboom [MASKED]")
	if !e.Gone() {
		t.Fatal("a crash is not Gone")
	}
	if log := f.log.String(); !strings.Contains(log, "boom [MASKED]") || strings.Contains(log, secret) {
		t.Fatalf("stderr not logged masked:\n%s", log)
	}
	again := pidOf(t, mustCall(t, f.c, "pid"))
	if again == first || !proctest.Gone(first) {
		t.Fatalf("no new child after the crash: %d then %d", first, again)
	}
}

func TestPartialLine(t *testing.T) {
	f := newClient(t, "requests", nil)
	_, err := call(context.Background(), f.c, "partial")
	mustFail(t, err, Partial, `stopped in the middle of an answer (partial line: "{\"jsonrpc\":\"2.0\",\"id\":")`, "exit status 1", "stderr: (empty)")
	mustCall(t, f.c, "pid")
}

// Loose: a last line without its '\n' is the answer when stdout ends.
func TestLooseTakesAnUnterminatedLastLine(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.Loose = true })
	if got := mustCall(t, f.c, "partial"); got != `{"jsonrpc":"2.0","id":` {
		t.Fatalf("answer %q", got)
	}
	mustCall(t, f.c, "pid")
}

func TestFrameCap(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.FrameCap = 1 << 10 })
	if got := mustCall(t, f.c, "big:1024"); len(got) != 1024 {
		t.Fatalf("a line of exactly the cap: %d bytes", len(got))
	}
	pid := pidOf(t, mustCall(t, f.c, "pid"))
	_, err := call(context.Background(), f.c, "big:1025")
	mustFail(t, err, TooLarge, "wrote an answer line longer than kitsoki's 1 KiB frame cap", "its process group was killed")
	proctest.WaitGone(t, pid)
	mustCall(t, f.c, "pid")
}

// An answer line that would take many times its bytes once decoded
// (empty arrays: 40 times) is refused before the caller's decoder reads
// it, ending the child; a line of the same size that costs little, or one
// that is not JSON, reaches the decoder. The floor is lowered from
// jsoncost.Floor's 256 MiB, which a 64 MiB line of "[]," passes tenfold.
func TestCostlyAnswerIsRefused(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.costFloor = 1 << 10 })
	empties := "[" + strings.Repeat("[],", 10_000) + "[]]"
	if got := mustCall(t, f.c, `{"a":"`+strings.Repeat("x", len(empties))+`"}`); len(got) != len(empties)+8 {
		t.Fatalf("a long string: %d bytes", len(got))
	}
	if got := mustCall(t, f.c, "not json "+empties); !strings.HasPrefix(got, "not json") {
		t.Fatalf("a line that is not JSON: %.20q", got)
	}
	pid := pidOf(t, mustCall(t, f.c, "pid"))
	_, err := call(context.Background(), f.c, empties)
	mustFail(t, err, TooLarge, "wrote an answer line of 30004 bytes that would take over 360048 bytes once decoded", "its process group was killed")
	proctest.WaitGone(t, pid)
	mustCall(t, f.c, "pid")
}

// An answer longer than the reader's buffer arrives whole, and an answer
// written just before the child exits is delivered, not reported as an
// exit.
func TestAnswersAreNeverLost(t *testing.T) {
	f := newClient(t, "requests", nil)
	if got := mustCall(t, f.c, "big:3000000"); len(got) != 3000000 || strings.Trim(got, "x") != "" {
		t.Fatalf("big answer: %d bytes", len(got))
	}
	for range 3 {
		if got := mustCall(t, f.c, "exit"); got != "bye" {
			t.Fatalf("last answer %q", got)
		}
		waitNoChild(t, f.c)
	}
}

// waitNoChild waits until c's child has exited on its own.
func waitNoChild(t *testing.T, c *Client) {
	t.Helper()
	proctest.Eventually(t, "the child to exit", func() bool { return c.pid() == 0 })
}

// waitChild waits until a call in flight has started c's child (and so
// holds the turn).
func waitChild(t *testing.T, c *Client) int {
	t.Helper()
	proctest.Eventually(t, "the call to start its child", func() bool { return c.pid() != 0 })
	return c.pid()
}

func TestDeadChildIsReplacedBeforeTheNextRequest(t *testing.T) {
	f := newClient(t, "requests", nil)
	mustCall(t, f.c, "exit")
	waitNoChild(t, f.c)
	mustCall(t, f.c, "pid")
	if !strings.Contains(f.log.String(), "test child exited between calls; starting a new one") {
		t.Fatalf("log:\n%s", f.log)
	}
}

// The verdict needs no clock: the child never answers.
func TestTimeout(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.Timeout = 300 * time.Millisecond; c.TimeoutHint = "entry.timeout_ms" })
	err := f.c.Call(context.Background(), Request{Frame: []byte("hang"), About: "host.x.y", Decode: func([]byte) error { return nil }})
	mustFail(t, err, Timeout, "test child did not answer host.x.y within 300ms (entry.timeout_ms)", "its process group was killed")
}

// Config.After arms each call's timeout with Config.Timeout: the call
// times out when its channel delivers and not before, so the next call,
// on a fresh child, has all the time its own channel gives it.
func TestTimeoutThroughAfter(t *testing.T) {
	armed := make(chan chan time.Time, 2)
	f := newClient(t, "requests", func(c *Config) {
		c.Timeout = 2 * time.Second
		c.After = func(d time.Duration) <-chan time.Time {
			if d != 2*time.Second {
				t.Errorf("armed with %v, want the Timeout 2s", d)
			}
			fire := make(chan time.Time, 1)
			armed <- fire
			return fire
		}
	})
	pid := pidOf(t, mustCall(t, f.c, "pid")) // its channel is never fired
	<-armed
	errc := make(chan error, 1)
	go func() {
		_, err := call(context.Background(), f.c, "hang")
		errc <- err
	}()
	(<-armed) <- time.Now()
	mustFail(t, <-errc, Timeout, "test child did not answer within 2s", "its process group was killed")
	proctest.WaitGone(t, pid)
	if again := pidOf(t, mustCall(t, f.c, "pid")); again == pid {
		t.Fatalf("the timed-out child %d answered again", pid)
	}
	<-armed
}

func TestContextEndKillsTheProcessGroup(t *testing.T) {
	f := newClient(t, "requests", nil)
	pidfile := filepath.Join(t.TempDir(), "grandchild")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := call(ctx, f.c, "grandchild:"+pidfile)
		errc <- err
	}()
	var b []byte
	proctest.Eventually(t, "the grandchild to start", func() bool {
		b, _ = os.ReadFile(pidfile)
		return len(b) > 0
	})
	pid := f.c.pid()
	cancel()
	e := mustFail(t, <-errc, Canceled, "gave no answer before the call's deadline (context canceled)", "its process group was killed")
	if !errors.Is(e, context.Canceled) {
		t.Fatalf("cause: %v", e.Err)
	}
	gc, _ := strconv.Atoi(string(b))
	proctest.WaitGone(t, pid)
	proctest.WaitGone(t, gc)
	mustCall(t, f.c, "pid")
}

func TestWaiterHonoursItsContext(t *testing.T) {
	f := newClient(t, "requests", nil)
	hangCtx, stopHang := context.WithCancel(context.Background())
	hung := make(chan error, 1)
	go func() {
		_, err := call(hangCtx, f.c, "hang")
		hung <- err
	}()
	waitChild(t, f.c)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := call(ctx, f.c, "pid")
	mustFail(t, err, Canceled, "while waiting for the previous call")
	stopHang()
	mustFail(t, <-hung, Canceled, "gave no answer before the call's deadline (context canceled)", "its process group was killed")
}

func TestDecoderDecidesTheChildsFate(t *testing.T) {
	f := newClient(t, "requests", nil)
	pid := pidOf(t, mustCall(t, f.c, "pid"))
	kept := errors.New("a domain error")
	err := f.c.Call(context.Background(), Request{Frame: []byte("x"), Decode: func([]byte) error { return kept }})
	if err != kept {
		t.Fatalf("a plain decoder error comes back as it is: %v", err)
	}
	if got := pidOf(t, mustCall(t, f.c, "pid")); got != pid {
		t.Fatalf("child replaced after a kept error: %d -> %d", pid, got)
	}
	err = f.c.Call(context.Background(), Request{Frame: []byte("x"), Decode: func(l []byte) error {
		return Fatal(fmt.Errorf("answered %q, which is no answer", l))
	}})
	mustFail(t, err, Protocol, `test child answered "x", which is no answer; its process group was killed; the next call starts a new process`)
	proctest.WaitGone(t, pid)
}

// A line that is not the answer (a notification) reaches the decoder; once
// it calls that fatal, the answer behind it never reaches another call.
func TestInterleavedNotification(t *testing.T) {
	f := newClient(t, "requests", nil)
	err := f.c.Call(context.Background(), Request{Frame: []byte("notify"), Decode: func(l []byte) error {
		if bytes.Contains(l, []byte(`"method"`)) {
			return Fatal(fmt.Errorf("sent a notification where its answer belongs: %s", l))
		}
		return nil
	}})
	mustFail(t, err, Protocol, `sent a notification where its answer belongs: {"method":"note"}`)
	if got := mustCall(t, f.c, "mine"); got != "mine" {
		t.Fatalf("stale answer %q", got)
	}
}

func TestBlankLines(t *testing.T) {
	t.Run("skipped", func(t *testing.T) {
		f := newClient(t, "requests", func(c *Config) { c.Loose = true })
		if got := mustCall(t, f.c, "blank"); got != "after blank" {
			t.Fatalf("Loose: %q", got)
		}
	})
	t.Run("an answer", func(t *testing.T) {
		f := newClient(t, "requests", nil)
		if got := mustCall(t, f.c, "blank"); got != "" {
			t.Fatalf("not Loose, the blank line is the answer: %q", got)
		}
	})
}

// A child that answers before reading its (large) request does not
// deadlock the call: the request is written while the answer is awaited.
func TestChildThatDoesNotReadItsRequest(t *testing.T) {
	f := newClient(t, "ignore-stdin", nil)
	if got := mustCall(t, f.c, strings.Repeat("r", 4<<20)); got != "early" {
		t.Fatalf("answer %q", got)
	}
	f.c.Close()
}

func TestClose(t *testing.T) {
	f := newClient(t, "requests", nil)
	errc := make(chan error, 1)
	go func() {
		_, err := call(context.Background(), f.c, "hang")
		errc <- err
	}()
	pid := waitChild(t, f.c)
	if err := f.c.Close(); err != nil {
		t.Fatal(err)
	}
	e := mustFail(t, <-errc, Closed, "test child was closed while the call was in flight")
	if !errors.Is(e, ErrClosed) || !proctest.Gone(pid) {
		t.Fatalf("cause %v; child %d gone: %v", e.Err, pid, proctest.Gone(pid))
	}
	_, err := call(context.Background(), f.c, "pid")
	mustFail(t, err, Closed, "test child is closed")
	if err := f.c.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	if err := newClient(t, "requests", nil).c.Close(); err != nil {
		t.Fatal("Close of a client that never started:", err)
	}
}

func TestStartFailure(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.Command = filepath.Join(t.TempDir(), "no-such-program") })
	_, err := call(context.Background(), f.c, "pid")
	e := mustFail(t, err, Start, "test child cannot start", "no such file or directory; fix the command")
	if strings.Contains(e.Error(), "fork/exec") || e.Started {
		t.Fatalf("start error: %v", e)
	}
}

// Concurrent callers are served one at a time by one child.
func TestConcurrentCallersShareOneChild(t *testing.T) {
	f := newClient(t, "requests", nil)
	var wg sync.WaitGroup
	pids := make([]int, 8)
	errs := make([]error, 8)
	for i := range pids {
		wg.Go(func() {
			var got string
			got, errs[i] = call(context.Background(), f.c, "pid")
			if errs[i] == nil {
				pids[i], _ = strconv.Atoi(strings.Fields(strings.TrimPrefix(got, "pid="))[0])
			}
		})
	}
	wg.Wait()
	for i := range pids {
		if errs[i] != nil || pids[i] != pids[0] {
			t.Fatalf("errs %v pids %v", errs, pids)
		}
	}
}

// Encode runs inside the call's turn (no lock needed for a counter; the
// race detector checks it), so requests are numbered in sending order,
// and an Encode error comes back as it is.
func TestEncodeNumbersRequestsInSendingOrder(t *testing.T) {
	f := newClient(t, "requests", nil)
	next := 0
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			var sent string
			errs <- f.c.Call(context.Background(), Request{
				Encode: func() ([]byte, error) {
					next++
					sent = strconv.Itoa(next)
					return []byte(sent), nil
				},
				Decode: func(line []byte) error {
					if string(line) != sent {
						return fmt.Errorf("request %s got answer %q", sent, line)
					}
					return nil
				},
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	bad := errors.New("cannot encode")
	if err := f.c.Call(context.Background(), Request{Encode: func() ([]byte, error) { return nil, bad }}); err != bad {
		t.Fatalf("Encode error: %v", err)
	}
	if next != 6 {
		t.Fatalf("%d requests encoded", next)
	}
}

// pid is the running child's process id, 0 when there is none (tests).
func (c *Client) pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.child == nil || c.child.dead() {
		return 0
	}
	return c.child.proc.Pid()
}

// A child's stderr reaches the log at the level each line names: a
// leading [WARN]/[ERROR] tag (after a timestamp too), a JSON log line's
// level or @level, debug otherwise; from a "panic:" line on, the rest of
// the stream (the stack) is an error.
func TestStderrLinesLoggedAtTheirLevel(t *testing.T) {
	f := newClient(t, "requests", nil)
	if _, err := call(context.Background(), f.c, "levels"); err == nil {
		t.Fatal("the levels child exits, the call must fail")
	}
	want := []string{
		`level=DEBUG msg="test child stderr" who=t line="plain chatter"`,
		`level=WARN msg="test child stderr" who=t line="2026/12/03 10:00:00 [WARN] low disk"`,
		`level=ERROR msg="test child stderr" who=t line="[ERROR] model not loaded"`,
		`level=INFO msg="test child stderr" who=t line="{\"@level\":\"info\",\"@message\":\"hclog line\"}"`,
		`level=ERROR msg="test child stderr" who=t line="{\"level\":\"ERROR\",\"msg\":\"slog line\"}"`,
		`level=ERROR msg="test child stderr" who=t line="panic: boom"`,
		`level=ERROR msg="test child stderr" who=t line="goroutine 1 [running]:"`,
	}
	log := f.log.String()
	for _, w := range want {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %s:\n%s", w, log)
		}
	}
}

// A child that answers one call twice: the first line is the answer, the
// second is handed to Config.Stray (never to the next call), which gets its
// own answer.
func TestSecondAnswerIsStrayNotTheNextCalls(t *testing.T) {
	strays := make(chan string, 4)
	f := newClient(t, "requests", func(c *Config) { c.Stray = func(line []byte) { strays <- string(line) } })
	if got := mustCall(t, f.c, "twice"); got != "first" {
		t.Fatalf("answer %q, want first", got)
	}
	select { // the drainer reports it; a hang guard only a failure reaches
	case got := <-strays:
		if got != "second" {
			t.Fatalf("stray %q, want second", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second answer was never reported as a stray")
	}
	if got := mustCall(t, f.c, "next"); got != "next" {
		t.Fatalf("the next call got %q, want its own answer", got)
	}
	if len(strays) != 0 {
		t.Fatalf("more strays: %q", <-strays)
	}
}

// A line the decoder marks Skip is passed over: the call waits for its
// answer and keeps the child.
func TestDecoderSkipKeepsWaiting(t *testing.T) {
	f := newClient(t, "requests", nil)
	pid := mustCall(t, f.c, "pid")
	var skipped []string
	var got string
	err := f.c.Call(context.Background(), Request{Frame: []byte("stale"), Decode: func(line []byte) error {
		if bytes.HasPrefix(line, []byte("stale:")) {
			skipped = append(skipped, string(line))
			return Skip()
		}
		got = string(line)
		return nil
	}})
	if err != nil || got != "fresh" {
		t.Fatalf("got %q, %v; want fresh", got, err)
	}
	if len(skipped) != 1 {
		t.Fatalf("skipped %q", skipped)
	}
	if again := mustCall(t, f.c, "pid"); strings.Fields(again)[0] != strings.Fields(pid)[0] {
		t.Fatalf("child replaced: %s -> %s", pid, again)
	}
}

// A child that keeps writing lines the decoder skips never answers: the
// call's context still ends it.
func TestSkippedLinesDoNotOutliveTheDeadline(t *testing.T) {
	f := newClient(t, "requests", nil)
	ctx, cancel := context.WithCancel(context.Background())
	err := f.c.Call(ctx, Request{Frame: []byte("stale"), Decode: func(line []byte) error {
		cancel() // the first line ends the call's time
		return Skip()
	}})
	mustFail(t, err, Canceled)
}

// TestFrameCapIsTheDocumented: a client's frame cap is MaxFrame, the
// 64 MiB docs/compat/interop.md states, unless a caller's test lowers
// it; Config.FrameCap cannot raise it.
func TestFrameCapIsTheDocumented(t *testing.T) {
	if MaxFrame != 64<<20 {
		t.Fatalf("MaxFrame is %d bytes; docs/compat/interop.md says 64 MiB", MaxFrame)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "interop.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "kitsoki caps one answer frame at 64 MiB") {
		t.Fatal("docs/compat/interop.md no longer states the 64 MiB frame cap")
	}
	for _, set := range []int{0, -1, MaxFrame + 1} {
		if got := New(Config{FrameCap: set}).cfg.FrameCap; got != MaxFrame {
			t.Errorf("FrameCap %d: the client's cap is %d, want MaxFrame", set, got)
		}
	}
	if got := New(Config{FrameCap: 1 << 10}).cfg.FrameCap; got != 1<<10 {
		t.Errorf("FrameCap 1 KiB: the client's cap is %d", got)
	}
}
