package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

func runSchemaT(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return storytest.CompileSchema(t, "run.schema.json", runSchema)
}

// runJSONOut runs kitsoki run --json in process and returns the exit code
// and the decoded stdout, which must satisfy run.schema.json.
func runJSONOut(t *testing.T, sch *jsonschema.Schema, args ...string) (int, map[string]any) {
	t.Helper()
	return runJSONOutContext(t, context.Background(), sch, args...)
}

// runJSONOutContext is runJSONOut under ctx.
func runJSONOutContext(t *testing.T, ctx context.Context, sch *jsonschema.Schema, args ...string) (int, map[string]any) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runIOContext(ctx, append([]string{"run", "--json", "--trace", filepath.Join(t.TempDir(), "t.jsonl")}, args...), nil, &out, &errb)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatalf("stdout is not one JSON value: %v\n%q\nstderr: %s", err, out.String(), errb.String())
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("output does not satisfy run.schema.json: %v\n%s", err, out.String())
	}
	var m map[string]any
	json.Unmarshal(out.Bytes(), &m)
	if m["schema"] != float64(1) || m["status"] != float64(code) {
		t.Fatalf("schema %v, status %v, exit %d", m["schema"], m["status"], code)
	}
	return code, m
}

// TestRunJSONShapes: real runs of every outcome print one object that
// satisfies the shipped schema; failed calls carry {kind, detail}.
func TestRunJSONShapes(t *testing.T) {
	sch := runSchemaT(t)
	ex := filepath.Join("..", "examples", "pr-review")

	code, m := runJSONOut(t, sch, ex, "--cassette", filepath.Join(ex, "cassettes", "review.cassette.yaml"))
	if code != 0 || m["outcome"] != "exit" || m["exit"] != "changes_requested" || len(m["calls"].([]any)) == 0 {
		t.Fatalf("exit run: %d %v", code, m)
	}

	hostFail := writeStory(t, `app: { id: hf, version: 0.1.0 }
hosts: [host.run]
root: start
states:
  start:
    on_enter:
      - invoke: host.run
        with: { cmd: "true", timeout: "soon" }
        on_error: handled
  handled:
    terminal: true
`)
	code, m = runJSONOut(t, sch, hostFail)
	calls := m["calls"].([]any)
	if code != 0 || m["outcome"] != "terminal" || len(calls) != 1 {
		t.Fatalf("host failure run: %d %v", code, m)
	}
	if e, ok := calls[0].(map[string]any)["error"].(map[string]any); !ok || e["kind"] != "host_error" || e["detail"] == "" {
		t.Fatalf("host call error: %v", calls[0])
	}

	agentFail := storytest.TempTree(t, map[string]string{"app.yaml": `app: { id: af, version: 0.1.0 }
agent_plugins:
  agent.gone:
    plugin: subprocess
    command: "` + filepath.Join(t.TempDir(), "no-such-plugin") + `"
hosts: [host.agent.decide]
world:
  out: { type: object, default: {} }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.gone
        with: { prompt: "pick", schema: schemas/s.json, args: {} }
        bind: { out: submitted }
    terminal: true
`, "schemas/s.json": `{"type": "object"}`})
	code, m = runJSONOut(t, sch, agentFail)
	calls = m["calls"].([]any)
	// without on_error the failed call does not fail the run (as a test
	// session): it is in calls with its error, and in last_error
	if code != 0 || m["outcome"] != "terminal" || len(calls) != 1 || calls[0].(map[string]any)["ok"] != false {
		t.Fatalf("agent failure run: %d %v", code, m)
	}
	e, _ := calls[0].(map[string]any)["error"].(map[string]any)
	known := false
	for _, k := range agent.Kinds() {
		known = known || e["kind"] == string(k)
	}
	if !known || strings.HasPrefix(e["detail"].(string), "agent:") {
		t.Fatalf("agent call error is not {kind, detail}: %v", e)
	}

	rested := writeStory(t, `app: { id: rs, version: 0.1.0 }
root: wait
states:
  wait: {}
`)
	code, m = runJSONOut(t, sch, rested)
	if code != 1 || m["outcome"] != "rested" || m["exit"] != nil || !strings.Contains(m["error"].(string), "--intent") || len(m["calls"].([]any)) != 0 {
		t.Fatalf("rested run: %d %v", code, m)
	}

	// The run's deadline passes while its one call runs: the test ends the
	// run's context once the command has started (it touches a file), so
	// no clock decides whether the call was under way.
	started := filepath.Join(t.TempDir(), "started")
	slow := writeStory(t, strings.Replace(slowStory, `cmd: "sleep 30"`, fmt.Sprintf(`cmd: "touch '%s'; sleep 600"`, started), 1))
	ctx := newFiredDeadline()
	go func() {
		waitFor(func() bool { _, err := os.Stat(started); return err == nil || ctx.Err() != nil }, time.Minute) // a hang guard
		ctx.fire()
	}()
	code, m = runJSONOutContext(t, ctx, sch, slow, "--timeout", "10m")
	ctx.fire() // ends the watcher if the run ended without starting its call
	calls = m["calls"].([]any)
	if code != 1 || m["outcome"] != "failed" || len(calls) != 1 || calls[0].(map[string]any)["error"].(map[string]any)["kind"] != "interrupted" ||
		!strings.Contains(m["error"].(string), "--timeout 10m0s reached") {
		t.Fatalf("run stopped by its deadline: %d %v", code, m)
	}

	invalid := writeStory(t, "app: { id: bad, version: 0.1.0 }\nroot: nowhere\nstates:\n  s: { terminal: true }\n")
	code, m = runJSONOut(t, sch, invalid)
	ds, _ := m["diagnostics"].([]any)
	if code != 1 || m["outcome"] != "invalid" || len(ds) == 0 || !strings.Contains(m["error"].(string), "does not load") {
		t.Fatalf("invalid story: %d %v", code, m)
	}
	if _, ok := m["calls"]; ok {
		t.Fatalf("an invalid story has no calls: %v", m)
	}

	code, m = runJSONOut(t, sch, rested, "--world", "nope=1")
	if code != 2 || m["outcome"] != "usage" || m["error"] == "" {
		t.Fatalf("usage error: %d %v", code, m)
	}
}

// TestRunSchemaIsNotVacuous: the schema rejects what the old output was (a
// string error, no schema key) and lists every agent error kind.
func TestRunSchemaIsNotVacuous(t *testing.T) {
	sch := runSchemaT(t)
	old := map[string]any{"exit": nil, "outcome": "failed", "state": "s", "status": 1, "world": map[string]any{}, "trace": "t", "session": "x",
		"calls": []any{map[string]any{"handler": "host.run", "state": "s", "turn": 1, "duration_ms": 1, "ok": false, "error": "boom"}}}
	if sch.Validate(old) == nil {
		t.Fatal("output without schema and with a string error accepted")
	}
	old["schema"] = 1
	if sch.Validate(old) == nil {
		t.Fatal("string calls[].error accepted")
	}
	old["calls"] = []any{map[string]any{"handler": "host.run", "state": "s", "turn": 1, "duration_ms": 1, "ok": false, "error": map[string]any{"kind": "host_error", "detail": "boom"}}}
	if err := sch.Validate(old); err != nil {
		t.Fatalf("valid object refused: %v", err)
	}
	for _, k := range agent.Kinds() {
		if !bytes.Contains(runSchema, []byte(`"`+string(k)+`"`)) {
			t.Errorf("run.schema.json does not list agent error kind %q", k)
		}
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"schema", "run"}, &out, &errb); code != 0 || !bytes.Equal(out.Bytes(), runSchema) {
		t.Fatalf("kitsoki schema run: exit %d", code)
	}
}

func TestClassifyCallError(t *testing.T) {
	cases := []struct {
		handler, msg, kind, detail string
	}{
		{"host.agent.decide", "agent: schema_invalid: submitted.x: missing", "schema_invalid", "submitted.x: missing"},
		{"host.agent.decide", "agent: plugin_crash", "plugin_crash", ""},
		{"host.agent.decide", "no agent configured", "agent_error", "no agent configured"},
		{"host.run", "exit status 3", "host_error", "exit status 3"},
		{"host.run", "signal: killed: context canceled", "interrupted", "signal: killed: context canceled"},
	}
	for _, c := range cases {
		got := classifyCallError(c.handler, c.msg, false)
		if got == nil || got.Kind != c.kind || got.Detail != c.detail {
			t.Errorf("%s %q: %+v", c.handler, c.msg, got)
		}
	}
	if classifyCallError("host.run", "", true) != nil {
		t.Error("an ok call has an error")
	}
}

// firedDeadline is a context whose deadline passes when the test says so
// (fire), not on a clock: Err is then context.DeadlineExceeded, as for a
// --timeout that was reached.
type firedDeadline struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newFiredDeadline() *firedDeadline {
	return &firedDeadline{Context: context.Background(), done: make(chan struct{})}
}

func (c *firedDeadline) fire()                 { c.once.Do(func() { close(c.done) }) }
func (c *firedDeadline) Done() <-chan struct{} { return c.done }

func (c *firedDeadline) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A world holding NaN or an infinity (`default: .nan`, as upstream reads
// it) still prints its summary: each such number is its text, the form
// upstream's expect_world compares it by.
func TestRunJSONNonFiniteWorld(t *testing.T) {
	dir := t.TempDir()
	writeFileT(t, filepath.Join(dir, "app.yaml"), `app: {id: nf, version: 0.1.0}
world:
  d: {type: float, default: .nan}
  e: {type: any, default: [.inf, {m: -.Inf}]}
root: s
states:
  s: {terminal: true}
`)
	code, out, errOut := runCmd(t, "run", dir, "--json", "--trace", filepath.Join(dir, "t.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var sum struct{ World map[string]any }
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, _ := json.Marshal([]any{sum.World["d"], sum.World["e"]}); string(got) != `["NaN",["+Inf",{"m":"-Inf"}]]` {
		t.Errorf("world d, e: %s\n%s", got, out)
	}
}
