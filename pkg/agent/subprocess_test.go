package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/gotype"
	"kitsoki/internal/testing/proctest"
	"kitsoki/pkg/story"
)

const referenceSubmission = `{"echo_prompt_head":"which is the best option for this context?","echo_verb":"decide"}`

func referenceRequest() *AskRequest {
	return &AskRequest{
		SessionID: "sess-1", Turn: 3, StatePath: "planning/refine", Verb: "decide",
		Prompt:   "which is the best option for this context?",
		With:     map[string]any{"repo": "acme/infra"},
		World:    World{Vars: map[string]any{"branch": "fix/CLOUD-42"}},
		Deadline: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		CallID:   "abc123def4567890",
	}
}

func withFault(fault string) *AskRequest {
	r := referenceRequest()
	r.With = map[string]any{"fault": fault, "alias": "agent.echo"}
	return r
}

type subprocessFixture struct {
	tr  *subprocessTransport
	log *SyncBuffer
}

// newEchoSubprocess builds a subprocess transport for the echoagent test
// plugin. secret, when set, is redacted by the BuildContext.
func newEchoSubprocess(t *testing.T, bin string, env map[string]string, secret string) subprocessFixture {
	t.Helper()
	logs := &SyncBuffer{}
	bc := BuildContext{
		StoryDir: t.TempDir(),
		Logger:   slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if secret != "" {
		bc.Redact = func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	}
	tr, err := newSubprocessTransport(&story.AgentPlugin{Alias: "agent.echo", Plugin: story.PluginSubprocess, Command: bin, Env: env}, bc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return subprocessFixture{tr: tr.(*subprocessTransport), log: logs}
}

func askKind(t *testing.T, tr Transport, ctx context.Context, req *AskRequest, want Kind) *AskError {
	t.Helper()
	resp, err := tr.Ask(ctx, req)
	if err == nil {
		t.Fatalf("want %s, got an answer: %s", want, resp.Submission)
	}
	var ae *AskError
	if !errors.As(err, &ae) {
		t.Fatalf("want *AskError %s, got %T %v", want, err, err)
	}
	if ae.Kind != want {
		t.Fatalf("want kind %s, got %s: %s", want, ae.Kind, ae.Detail)
	}
	return ae
}

func askOK(t *testing.T, tr Transport, req *AskRequest) *AskResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard: the call must answer
	defer cancel()
	resp, err := tr.Ask(ctx, req)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	return resp
}

func pidOf(t *testing.T, resp *AskResponse) int {
	t.Helper()
	f, ok := resp.Meta["pid"].(float64)
	if !ok {
		t.Fatalf("meta has no pid: %v", resp.Meta)
	}
	return int(f)
}

func testSubprocessAnswersAndReusesProcess(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")

	r1 := askOK(t, f.tr, referenceRequest())
	if string(r1.Submission) != referenceSubmission {
		t.Fatalf("submission bytes:\n got %s\nwant %s", r1.Submission, referenceSubmission)
	}
	if r1.Meta["transport"] != "subprocess" || bytes.Contains(r1.Submission, []byte("transport")) {
		t.Fatalf("meta must stay apart from the submission: meta=%v submission=%s", r1.Meta, r1.Submission)
	}
	r2 := askOK(t, f.tr, referenceRequest())
	if pidOf(t, r1) != pidOf(t, r2) {
		t.Fatalf("the process was not reused: pid %d then %d", pidOf(t, r1), pidOf(t, r2))
	}

	// The wire: one compact JSON-RPC line, ids counting up.
	r3 := askOK(t, f.tr, withFault("echo_request"))
	var got struct{ Line string }
	if err := json.Unmarshal(r3.Submission, &got); err != nil {
		t.Fatal(err)
	}
	req := withFault("echo_request")
	params, _ := json.Marshal(req)
	want := `{"jsonrpc":"2.0","id":3,"method":"agent.ask","params":` + string(params) + "}\n"
	if got.Line != want {
		t.Fatalf("request line:\n got %q\nwant %q", got.Line, want)
	}
	if !strings.Contains(f.log.String(), "agent plugin started") {
		t.Fatalf("debug log lacks the start line:\n%s", f.log.String())
	}
}

func testSubprocessEnvironmentIsMinimal(t *testing.T, bin string) {
	CheckNoChildren(t)
	t.Setenv("KITSOKI_TEST_MUST_NOT_LEAK", "leaky")
	f := newEchoSubprocess(t, bin, map[string]string{"API_KEY": "from-env-block", "LANG": "C.UTF-8"}, "")
	resp := askOK(t, f.tr, withFault("env"))
	var got struct{ Env []string }
	if err := json.Unmarshal(resp.Submission, &got); err != nil {
		t.Fatal(err)
	}
	env := strings.Join(got.Env, "\n")
	for _, want := range []string{"API_KEY=from-env-block", "LANG=C.UTF-8", "PATH=" + os.Getenv("PATH")} {
		if !strings.Contains(env, want) {
			t.Errorf("plugin env lacks %q:\n%s", want, env)
		}
	}
	if strings.Contains(env, "KITSOKI_TEST_MUST_NOT_LEAK") {
		t.Errorf("plugin inherited a variable outside the minimal list:\n%s", env)
	}
}

func testSubprocessCrashIsPluginCrashAndRespawns(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, map[string]string{"ECHO_STDERR": "db password hunter2 rejected"}, "hunter2")
	first := askOK(t, f.tr, referenceRequest())

	ae := askKind(t, f.tr, context.Background(), withFault("crash"), KindPluginCrash)
	for _, want := range []string{"exit status 3", "db password [REDACTED] rejected", "next call starts a new process"} {
		if !strings.Contains(ae.Detail, want) {
			t.Errorf("crash detail lacks %q:\n%s", want, ae.Detail)
		}
	}
	if strings.Contains(ae.Detail, "hunter2") || strings.Contains(f.log.String(), "hunter2") {
		t.Fatalf("secret leaked:\n%s\n%s", ae.Detail, f.log.String())
	}
	if !strings.Contains(f.log.String(), "db password [REDACTED] rejected") {
		t.Fatalf("stderr not forwarded to the debug log:\n%s", f.log.String())
	}
	again := askOK(t, f.tr, referenceRequest())
	if pidOf(t, again) == pidOf(t, first) {
		t.Fatal("no new process after the crash")
	}
	if !ProcessGone(pidOf(t, first)) {
		t.Fatalf("crashed process %d still there", pidOf(t, first))
	}
}

func testSubprocessProtocolFaults(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	cases := []struct {
		fault      string
		detail     string
		keepsAlive bool
	}{
		{"partial", `stopped in the middle of an answer (partial line: "{\"jsonrpc\":\"2.0\",\"id\":")`, false},
		{"garbage", "hello from a plugin that logs to stdout", false},
		{"wrong_id", "reply id is", false},
		{"rpc_error", `JSON-RPC error -32000: deliberate failure (data: {"why":"test"})`, true},
		{"no_result", "neither result nor error", true},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			before := pidOf(t, askOK(t, f.tr, referenceRequest()))
			ae := askKind(t, f.tr, context.Background(), withFault(c.fault), KindPluginCrash)
			if !strings.Contains(ae.Detail, c.detail) {
				t.Fatalf("detail lacks %q:\n%s", c.detail, ae.Detail)
			}
			after := pidOf(t, askOK(t, f.tr, referenceRequest()))
			if c.keepsAlive != (before == after) {
				t.Fatalf("keepsAlive=%v but pid %d -> %d", c.keepsAlive, before, after)
			}
			if !c.keepsAlive && !ProcessGone(before) {
				t.Fatalf("process %d not killed after a protocol fault", before)
			}
		})
	}
}

// A reply line without "jsonrpc" and id answers the request in flight, as
// the existing engine reads it (it checks neither; probed with a plugin
// replying {"result": ...} only); the process is kept.
func testSubprocessBareReplyAccepted(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	first := pidOf(t, askOK(t, f.tr, referenceRequest()))
	askOK(t, f.tr, withFault("bare_reply"))
	if again := pidOf(t, askOK(t, f.tr, referenceRequest())); again != first {
		t.Fatalf("process replaced after a bare reply: %d -> %d", first, again)
	}
}

// A notification written after an answer answers no call: it is reported
// with the next call (stray), which gets its own answer from the same
// process.
func testSubprocessUnsolicitedLineIsReported(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	askOK(t, f.tr, withFault("stdout_unsolicited"))
	n := &callNotes{}
	resp := askNoted(t, f.tr, n, referenceRequest())
	if string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
	_, stray := n.fields()
	if len(stray) != 1 || !strings.Contains(stray[0], `\"method\":\"unsolicited\"`) || !strings.Contains(stray[0], "agent.echo") {
		t.Fatalf("stray %q", stray)
	}
}

func testSubprocessDeadlineKillsProcessGroup(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	first := pidOf(t, askOK(t, f.tr, referenceRequest()))

	pidfile := filepath.Join(t.TempDir(), "grandchild.pid")
	req := withFault("grandchild")
	req.With["pidfile"] = pidfile
	// The deadline comes once the grandchild runs (its pid is written).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		WaitForFile(t, pidfile)
		cancel()
	}()
	ae := askKind(t, f.tr, ctx, req, KindDeadlineExceeded)
	if !strings.Contains(ae.Detail, "process group was killed") {
		t.Fatalf("detail: %s", ae.Detail)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(string(b))
	proctest.WaitGone(t, first)
	proctest.WaitGone(t, grandchild)
	if got := pidOf(t, askOK(t, f.tr, referenceRequest())); got == first {
		t.Fatal("no respawn after the deadline")
	}
}

func testSubprocessLateAnswerIsNotDelivered(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	askKind(t, f.tr, ctx, withFault("slow:60000"), KindDeadlineExceeded) // answers long after the deadline
	// The next call must get its own answer, never the late one.
	req := referenceRequest()
	req.Prompt = "a different prompt"
	resp := askOK(t, f.tr, req)
	if !bytes.Contains(resp.Submission, []byte("a different prompt")) {
		t.Fatalf("got a stale answer: %s", resp.Submission)
	}
}

func testSubprocessSerialisesAndWaitersHonourContext(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")

	var wg sync.WaitGroup
	pids := make([]int, 5)
	errs := make([]error, 5)
	for i := range 5 {
		wg.Go(func() {
			resp, err := f.tr.Ask(context.Background(), referenceRequest())
			errs[i] = err
			if err == nil {
				pids[i] = int(resp.Meta["pid"].(float64))
			}
		})
	}
	wg.Wait()
	for i := range 5 {
		if errs[i] != nil || pids[i] != pids[0] {
			t.Fatalf("concurrent asks: errs=%v pids=%v", errs, pids)
		}
	}

	// A caller queued behind a hanging call gives up at its own deadline.
	hangCtx, cancelHang := context.WithCancel(context.Background())
	hung := make(chan error, 1)
	received := filepath.Join(t.TempDir(), "received")
	go func() {
		req := withFault("hang")
		req.With["received"] = received
		_, err := f.tr.Ask(hangCtx, req)
		hung <- err
	}()
	WaitForFile(t, received) // the hanging call holds the plugin
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	ae := askKind(t, f.tr, ctx, referenceRequest(), KindDeadlineExceeded)
	if !strings.Contains(ae.Detail, "waiting for the previous call") && !strings.Contains(ae.Detail, "no answer before") {
		t.Fatalf("detail: %s", ae.Detail)
	}
	cancelHang()
	if KindOf(<-hung) != KindDeadlineExceeded {
		t.Fatal("the cancelled hanging call is not deadline_exceeded")
	}
}

func testSubprocessCloseTerminatesThenKills(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, map[string]string{"ECHO_IGNORE_SIGTERM": "1"}, "")
	pid := pidOf(t, askOK(t, f.tr, referenceRequest()))
	if err := f.tr.Close(); err != nil {
		t.Fatal(err)
	}
	if !ProcessGone(pid) {
		t.Fatalf("process %d survived Close", pid)
	}
	if err := f.tr.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	askKind(t, f.tr, context.Background(), referenceRequest(), KindTransportError)

	// A well-behaved plugin exits on stdin EOF / SIGTERM.
	g := newEchoSubprocess(t, bin, nil, "")
	pid = pidOf(t, askOK(t, g.tr, referenceRequest()))
	g.tr.Close()
	if !ProcessGone(pid) {
		t.Fatalf("process %d survived Close", pid)
	}
	// Close on a never-started transport is a no-op.
	h := newEchoSubprocess(t, bin, nil, "")
	if err := h.tr.Close(); err != nil {
		t.Fatal(err)
	}
}

func testSubprocessCloseDuringCall(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	done := make(chan error, 1)
	received := filepath.Join(t.TempDir(), "received")
	go func() {
		req := withFault("hang")
		req.With["received"] = received
		_, err := f.tr.Ask(context.Background(), req)
		done <- err
	}()
	WaitForFile(t, received) // the call is in flight
	f.tr.Close()
	if k := KindOf(<-done); k != KindTransportError {
		t.Fatalf("in-flight call after Close: kind %q", k)
	}
}

func testSubprocessStartFailures(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, filepath.Join(t.TempDir(), "no-such-plugin"), nil, "")
	ae := askKind(t, f.tr, context.Background(), referenceRequest(), KindPluginCrash)
	if !strings.Contains(ae.Detail, "cannot start") || !strings.Contains(ae.Detail, "agent_plugins.agent.echo") {
		t.Fatalf("detail: %s", ae.Detail)
	}
	if _, err := newSubprocessTransport(&story.AgentPlugin{Alias: "agent.x", Plugin: story.PluginSubprocess}, BuildContext{}); err == nil ||
		!strings.Contains(err.Error(), "agent_plugins.agent.x: subprocess plugin requires command:") {
		t.Fatalf("missing command: %v", err)
	}
}

func testSubprocessRelativeCommandUsesStoryDir(t *testing.T, bin string) {
	CheckNoChildren(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "echoagent"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	tr, err := newSubprocessTransport(&story.AgentPlugin{Alias: "agent.echo", Command: "./bin/echoagent"}, BuildContext{StoryDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
}

// TestSubprocessTransport runs every subprocess test against one build of
// the echoagent test plugin.
func TestSubprocessTransport(t *testing.T) {
	bin := BuildTestPlugin(t, "echoagent")
	for _, c := range []struct {
		name string
		fn   func(*testing.T, string)
	}{
		{"AnswersAndReusesProcess", testSubprocessAnswersAndReusesProcess},
		{"EnvironmentIsMinimal", testSubprocessEnvironmentIsMinimal},
		{"CrashIsPluginCrashAndRespawns", testSubprocessCrashIsPluginCrashAndRespawns},
		{"ProtocolFaults", testSubprocessProtocolFaults},
		{"UnsolicitedLineIsReported", testSubprocessUnsolicitedLineIsReported},
		{"SecondAnswerWithIDIsStray", testSubprocessSecondAnswerWithIDIsStray},
		{"SecondAnswerWithoutIDIsStray", testSubprocessSecondAnswerWithoutIDIsStray},
		{"StaleReplySkipped", testSubprocessStaleReplySkipped},
		{"BareReplyAccepted", testSubprocessBareReplyAccepted},
		{"DeadlineKillsProcessGroup", testSubprocessDeadlineKillsProcessGroup},
		{"LateAnswerIsNotDelivered", testSubprocessLateAnswerIsNotDelivered},
		{"SerialisesAndWaitersHonourContext", testSubprocessSerialisesAndWaitersHonourContext},
		{"CloseTerminatesThenKills", testSubprocessCloseTerminatesThenKills},
		{"CloseDuringCall", testSubprocessCloseDuringCall},
		{"RelativeCommandUsesStoryDir", testSubprocessRelativeCommandUsesStoryDir},
		{"StartFailures", testSubprocessStartFailures},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, bin) })
	}
}

// TestChildProcessesSeesALeak checks the leak detector itself: a child the
// test starts and does not reap is listed until it is.
func TestChildProcessesSeesALeak(t *testing.T) {
	if _, ok := ChildProcesses(); !ok {
		t.Skip("no /proc here")
	}
	bin := BuildTestPlugin(t, "echoagent")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "ECHO_ROLE=sleeper")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	listed := func() bool {
		kids, _ := ChildProcesses()
		for _, k := range kids {
			if strings.HasPrefix(k, pid+" ") {
				return true
			}
		}
		return false
	}
	if !listed() {
		t.Fatalf("running child %s not listed", pid)
	}
	cmd.Process.Kill()
	if !listed() {
		t.Fatalf("killed but unreaped child %s not listed", pid)
	}
	cmd.Wait()
	if listed() {
		t.Fatalf("reaped child %s still listed", pid)
	}
}

func FuzzSubprocessReply(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"submission":{"a":1},"meta":{"k":"v"}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x","data":[1]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","method":"note"}`,
		`{"jsonrpc":"1.0","id":1,"result":null}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sub_events":[{"kind":"a.b","ts":"bad"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"meta":[1]}}`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`,
		`not json`,
		``,
	} {
		f.Add([]byte(s))
	}
	tr := &subprocessTransport{alias: "agent.fuzz", redact: BuildContext{}.Mask}
	f.Fuzz(func(t *testing.T, line []byte) {
		resp, err := tr.parseReply(line, 1)
		if (resp == nil) == (err == nil) {
			t.Fatalf("want exactly one of answer and error: %v %v", resp, err)
		}
		if err == errNotThisCall { // an earlier request's reply or a notification: skipped
			return
		}
		var ae *AskError
		if err != nil && errors.Unwrap(err) == nil && (!errors.As(err, &ae) || ae.Kind != KindPluginCrash) {
			t.Fatalf("a kept error must be plugin_crash: %T %v", err, err)
		}
		if err != nil && gotype.Named(err.Error(), line) != "" {
			t.Fatalf("%q: %v names a Go type", line, err)
		}
	})
}
