package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

const (
	trData   = "../pkg/trace/testdata"
	trTriage = trData + "/triage/run.jsonl"
	trGolden = trData + "/cmd"
)

// trRun runs kitsoki in-process and returns stdout, stderr and the exit code.
func trRun(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootFor(&out, &errb, nil)
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	code := 0
	if err := root.Execute(); err != nil {
		code = exitCodeOf(&errb, err)
	}
	return out.String(), errb.String(), code
}

// exitCodeOf mirrors Run's error handling for a command run through newRootFor.
func exitCodeOf(stderr *bytes.Buffer, err error) int {
	if ee, ok := err.(*exitError); ok {
		if ee.err != nil {
			stderr.WriteString("kitsoki: " + ee.err.Error() + "\n")
		}
		return ee.code
	}
	stderr.WriteString("kitsoki: " + err.Error() + "\n")
	return exitUsageEnv
}

func trGoldenFile(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join(trGolden, name), got)
}

func TestTraceVerifyCommand(t *testing.T) {
	files, _ := filepath.Glob(trData + "/corrupt/*.jsonl")
	args := append([]string{"trace", "verify"}, files...)
	args = append(args, trTriage)
	out, errOut, code := trRun(t, "", args...)
	if code != exitFinding {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	// Each file's finding is the one pkg/trace's corrupt golden pins,
	// printed as file:line: message.
	var want strings.Builder
	for _, f := range files {
		_, err := trace.VerifyFile(f)
		ce, ok := errors.AsType[*trace.CorruptError](err)
		if !ok {
			t.Fatalf("%s: %v", f, err)
		}
		fmt.Fprintf(&want, "%s:%d: %s\n", f, ce.Line, ce.Msg)
	}
	res, err := trace.VerifyFile(trTriage)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&want, "ok %s (%d events, %d turns, %d bytes)\n", trTriage, res.Events, res.Turns, res.Bytes)
	if out != want.String() {
		t.Fatalf("trace verify printed\n%s\nwant\n%s", out, want.String())
	}

	out, _, code = trRun(t, "", "trace", "verify", trTriage)
	if code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("valid trace: exit %d %s", code, out)
	}
	data, _ := os.ReadFile(trData + "/corrupt/12_seq_duplicate.jsonl")
	out, _, code = trRun(t, string(data), "trace", "verify", "-")
	if code != exitFinding || out != "-:5: duplicate (turn,seq) at line 5: turn=1 seq=1\n" {
		t.Fatalf("stdin: exit %d %q", code, out)
	}
	_, errOut, code = trRun(t, "", "trace", "verify", filepath.Join(t.TempDir(), "missing.jsonl"))
	if code != exitUsageEnv || !strings.Contains(errOut, "no such file") {
		t.Fatalf("missing file: exit %d %q", code, errOut)
	}
}

func TestTraceShowCommand(t *testing.T) {
	out, errOut, code := trRun(t, "", "trace", "show", trTriage, "--prompts", "--width", "60")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "\x1b[") {
		t.Fatal("colour written to a non-terminal")
	}
	trGoldenFile(t, "show.golden", out)

	out, _, _ = trRun(t, "", "trace", "show", trTriage, "--turn", "2", "--kind", "agent.", "--kind", "fixer.")
	trGoldenFile(t, "show_turn2_agent.golden", out)

	out, _, _ = trRun(t, "", "trace", "show", trTriage, "--color", "always")
	if !strings.Contains(out, "\x1b[36magent\x1b[0m") || !strings.Contains(out, "\x1b[31m") {
		t.Fatalf("--color always wrote no colour:\n%s", out)
	}
	t.Setenv("NO_COLOR", "1")
	out, _, _ = trRun(t, "", "trace", "show", trTriage)
	if strings.Contains(out, "\x1b[") {
		t.Fatal("NO_COLOR ignored")
	}

	// A corrupt trace: what precedes the corruption is shown, then exit 1.
	out, errOut, code = trRun(t, "", "trace", "show", trData+"/corrupt/14_seq_gap.jsonl")
	if code != exitFinding || !strings.Contains(out, "enter   idle") || !strings.Contains(errOut, "14_seq_gap.jsonl:4: gap in seq within turn 1 at line 4: expected seq 1, got 2") {
		t.Fatalf("corrupt: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestTraceCallsAndStatsCommands(t *testing.T) {
	out, _, code := trRun(t, "", "trace", "calls", trTriage)
	if code != 0 {
		t.Fatal(code)
	}
	trGoldenFile(t, "calls.golden", out)
	out, _, _ = trRun(t, "", "trace", "calls", trTriage, "--json")
	var calls []trace.Call
	if err := json.Unmarshal([]byte(out), &calls); err != nil || len(calls) != 4 {
		t.Fatalf("calls --json: %v\n%s", err, out)
	}
	if c := calls[1]; c.Substitution == nil || c.Substitution.OriginalPlugin != "local" || c.InputTokens != 210 {
		t.Fatalf("%+v", c)
	}
	if c := calls[3]; c.Outcome != "error" || c.ErrorKind != "deadline_exceeded" {
		t.Fatalf("%+v", c)
	}
	if calls[2].SubEvents != 3 {
		t.Fatalf("sub-events %d", calls[2].SubEvents)
	}

	out, _, code = trRun(t, "", "trace", "stats", trTriage, trData+"/ok_blank_lines.jsonl")
	if code != 0 {
		t.Fatal(code)
	}
	trGoldenFile(t, "stats.golden", out)
	out, _, _ = trRun(t, "", "trace", "stats", "--json", trTriage)
	var st trace.Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Calls != 4 || st.LatencyP95MS != 30000 || st.CostUSD != 0.0485 {
		t.Fatalf("stats --json: %v %+v", err, st)
	}
	// The refusal is the one pkg/trace's corrupt golden pins.
	crlf := trData + "/corrupt/02_crlf.jsonl"
	_, err := trace.VerifyFile(crlf)
	ce, ok := errors.AsType[*trace.CorruptError](err)
	if !ok {
		t.Fatalf("%s: %v", crlf, err)
	}
	_, errOut, code := trRun(t, "", "trace", "stats", trTriage, crlf)
	if code != exitFinding || !strings.Contains(errOut, ce.Msg) {
		t.Fatalf("stats on a corrupt trace: %d %s; want %q", code, errOut, ce.Msg)
	}
}

func TestTraceExportCommand(t *testing.T) {
	out, errOut, code := trRun(t, "", "trace", "export", "--format", "otlp-json", trTriage)
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var req map[string]any
	if err := json.Unmarshal([]byte(out), &req); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"gen_ai.operation.name"`, `"gen_ai.request.model"`, `"gen_ai.usage.input_tokens"`, `"gen_ai.usage.output_tokens"`, `"startTimeUnixNano"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("export lacks %s", want)
		}
	}
	_, errOut, code = trRun(t, "", "trace", "export", "--format", "jaeger", trTriage)
	if code != exitUsageEnv || !strings.Contains(errOut, "use --format otlp-json") {
		t.Fatalf("%d %s", code, errOut)
	}
	p := filepath.Join(t.TempDir(), "spans.json")
	if _, _, code := trRun(t, "", "trace", "export", "-o", p, trTriage); code != 0 {
		t.Fatal(code)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, []byte(out)) {
		t.Fatal("-o output differs from stdout output")
	}
}

func TestTraceLsAndLookup(t *testing.T) {
	dir := t.TempDir()
	data, _ := os.ReadFile(trTriage)
	old := filepath.Join(dir, "20261129T080000Z-ci-triage-aaaa.jsonl")
	newer := filepath.Join(dir, "nested", "20261130T090000Z-ci-triage-bbbb.jsonl")
	os.MkdirAll(filepath.Dir(newer), 0o755)
	os.MkdirAll(filepath.Join(dir, "transcripts"), 0o755)
	for _, p := range []string{old, newer, filepath.Join(dir, "transcripts", "x.jsonl")} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	out, _, code := trRun(t, "", "trace", "ls", "--sessions-dir", dir)
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "bbbb") || !strings.Contains(lines[2], "aaaa") || !strings.Contains(lines[1], "ci-triage") {
		t.Fatalf("ls (newest first, sidecar folders skipped):\n%s", out)
	}
	// A substring picks the newest match and names it on stderr.
	out, errOut, code := trRun(t, "", "trace", "calls", "--sessions-dir", dir, "ci-triage")
	if code != 0 || errOut != "# "+newer+"\n" || !strings.Contains(out, "a1b2c3d4e5f60718") {
		t.Fatalf("lookup: %d %q", code, errOut)
	}
	_, errOut, _ = trRun(t, "", "trace", "verify", "--sessions-dir", dir, "aaaa")
	if errOut != "# "+old+"\n" {
		t.Fatalf("id lookup: %q", errOut)
	}
	_, errOut, code = trRun(t, "", "trace", "show", "--sessions-dir", dir, "nomatch")
	if code != exitUsageEnv || !strings.Contains(errOut, `no session trace found under `+dir+` matching "nomatch"`) {
		t.Fatalf("%d %s", code, errOut)
	}
	out, _, _ = trRun(t, "", "trace", "ls", "--sessions-dir", filepath.Join(dir, "none"))
	if !strings.HasPrefix(out, "no traces under") {
		t.Fatal(out)
	}
}

func TestTraceShowFollow(t *testing.T) {
	p := filepath.Join(t.TempDir(), "live.jsonl")
	w, err := trace.CreateWith(p, trace.Header{AppID: "live"}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(trace.Event{Turn: 0, StatePath: "start", Kind: "machine.state_entered", Payload: map[string]string{"state": "start"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out storytest.SyncBuffer
	done := make(chan int)
	go func() {
		var errb bytes.Buffer
		root := newRootFor(&out, &errb, nil)
		root.SetArgs([]string{"trace", "show", "--follow", p})
		code := 0
		if err := root.ExecuteContext(ctx); err != nil {
			code = exitCodeOf(&errb, err)
		}
		done <- code
	}()
	waitFor := func(s string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute) // a hang guard
		for !strings.Contains(out.String(), s) {
			if time.Now().After(deadline) {
				t.Fatalf("follow never printed %q:\n%s", s, out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("enter   start")
	if err := w.Append(trace.Event{Turn: 1, StatePath: "start", Kind: "machine.say", Payload: map[string]string{"text": "written after the follower started"}}); err != nil {
		t.Fatal(err)
	}
	waitFor("written after the follower started")
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("follow exit %d", code)
	}
}
