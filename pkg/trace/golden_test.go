package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/golden"
)

// goldenTrace is a hand-made trace of a CI-triage run, written through the
// Writer with fixed timestamps: bootstrap, a host.run call, a decide call
// whose long prompt and response go to sidecars, a local plugin call that
// fails schema validation and falls back, a call with plugin sub-events, a
// call that errors, say lines and world updates. -update rewrites it.
const goldenDir = "testdata/triage"

func writeGoldenTrace(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "run.jsonl")
	os.RemoveAll(filepath.Join(dir, promptsDir))
	base := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	w, err := CreateWith(p, Header{WrittenAt: base, AppID: "ci-triage", Story: "examples/ci-triage/app.yaml", Generator: "kitsoki test"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	at := func(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }
	app := func(turn, ms int, kind, state string, payload any) {
		t.Helper()
		if err := w.Append(Event{Turn: turn, TS: at(ms), Kind: kind, StatePath: state, Payload: payload}); err != nil {
			t.Fatal(err)
		}
	}
	call := func(turn, ms int, kind, state, id string, payload any) {
		t.Helper()
		if err := w.Append(Event{Turn: turn, TS: at(ms), Kind: kind, StatePath: state, CallID: id, Payload: payload}); err != nil {
			t.Fatal(err)
		}
	}
	type start struct {
		Verb   string         `json:"verb"`
		Agent  string         `json:"agent,omitempty"`
		Model  string         `json:"model,omitempty"`
		Prompt string         `json:"prompt,omitempty"`
		Input  map[string]any `json:"input,omitempty"`
	}
	app(0, 1, "machine.state_entered", "triage", map[string]any{"state": "triage"})
	app(0, 2, "machine.state_entered", "triage.collect", map[string]any{"state": "triage.collect"})
	app(0, 3, "harness.called", "triage.collect", map[string]any{"namespace": "host.run", "args": map[string]any{"cmd": "go", "args": []string{"test", "./broken"}}, "background": false})
	app(0, 950, "harness.returned", "triage.collect", map[string]any{"namespace": "host.run", "data": map[string]any{"exit_code": 1, "ok": false, "stdout": "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL\n"}})
	app(0, 951, "world.update", "triage.collect", map[string]any{"set": map[string]any{"test_output": "--- FAIL: TestParse"}})
	app(0, 952, "machine.say", "triage.collect", map[string]any{"text": "Tests failed (exit 1); asking for a decision."})

	// Turn 1: the decide call, with a long prompt and response in sidecars.
	prompt := "You triage CI failures. Decide: retry, fix or escalate.\n\n" + strings.Repeat("FAIL\tkitsoki/broken\t0.002s\n", 60)
	call(1, 1000, "agent.call.start", "triage.collect", "a1b2c3d4e5f60718", start{"decide", "agent.claude", "claude-sonnet-4-6", prompt, map[string]any{"schema_path": "schemas/decision.json"}})
	reason := "The failure is deterministic: " + strings.Repeat("parse_test.go expects 4 but the parser returns 3 for nested input. ", 20)
	call(1, 2240, "agent.call.complete", "triage.collect", "a1b2c3d4e5f60718", map[string]any{"verb": "decide", "agent": "agent.claude", "model": "claude-sonnet-4-6", "duration_ms": 1240,
		"response": map[string]any{"submission": map[string]any{"action": "fix", "reason": reason}},
		"meta":     map[string]any{"usage": map[string]any{"input_tokens": 1820, "output_tokens": 96}, "cost_usd": 0.00690}})
	app(1, 2241, "turn.input", "triage.collect", map[string]any{"input": "[intent] decided", "intent": "decided"})
	app(1, 2242, "turn.start", "triage.collect", map[string]any{"direct": true, "input": "[direct] intent=decided", "turn": 1})
	app(1, 2243, "machine.intent_accepted", "triage.collect", map[string]any{"intent": "decided", "slots": map[string]any{"action": "fix"}})
	app(1, 2244, "machine.transition", "triage.collect", map[string]any{"from": "triage.collect", "intent": "decided", "slots": map[string]any{"action": "fix"}, "to": "triage.fix"})
	app(1, 2245, "world.update", "triage.collect", map[string]any{"set": map[string]any{"action": "fix"}})
	app(1, 2246, "machine.state_exited", "triage.collect", map[string]any{"state": "triage.collect"})
	app(1, 2247, "machine.state_entered", "triage.fix", map[string]any{"state": "triage.fix"})
	app(1, 2248, "turn.end", "triage.collect", map[string]any{"outcome": "transitioned", "to": "triage.fix"})

	// Turn 2: a local model's answer fails the schema, agent.claude answers
	// under the same call id; then a plugin call with sub-events.
	call(2, 3000, "agent.call.start", "triage.fix", "0f1e2d3c4b5a6978", start{Verb: "extract", Agent: "local", Model: "qwen2.5-1.5b", Prompt: "Extract the failing test name."})
	call(2, 3900, "agent.call.complete", "triage.fix", "0f1e2d3c4b5a6978", map[string]any{"verb": "extract", "agent": "agent.claude", "model": "claude-haiku-4-5", "duration_ms": 900,
		"response":     map[string]any{"submission": map[string]any{"test": "TestParse"}},
		"meta":         map[string]any{"usage": map[string]any{"input_tokens": 210, "output_tokens": 12}, "cost_usd": 0.0004},
		"substitution": map[string]any{"reason": "schema_invalid", "original_plugin": "local", "fallback_plugin": "agent.claude"}})
	call(2, 4000, "agent.call.start", "triage.fix", "9988776655443322", start{Verb: "task", Agent: "fixer", Model: "gpt-5", Prompt: "Fix TestParse."})
	call(2, 4100, "fixer.tool_call", "triage.fix", "9988776655443322", map[string]any{"tool": "read_file", "path": "parse.go"})
	call(2, 4200, "fixer.tool_call", "triage.fix", "9988776655443322", map[string]any{"tool": "write_file", "path": "parse.go"})
	call(2, 4300, "fixer.progress", "triage.fix", "9988776655443322", map[string]any{"text": "patched nested case"})
	call(2, 9000, "agent.call.complete", "triage.fix", "9988776655443322", map[string]any{"verb": "task", "agent": "fixer", "model": "gpt-5", "duration_ms": 5000,
		"response": map[string]any{"submission": map[string]any{"patched": true, "files": []string{"parse.go"}}},
		"meta":     map[string]any{"usage": map[string]any{"input_tokens": 5400, "output_tokens": 730}, "cost_usd": 0.0412}})
	app(2, 9001, "turn.input", "triage.fix", map[string]any{"input": "[intent] fixed", "intent": "fixed"})
	app(2, 9002, "machine.intent_accepted", "triage.fix", map[string]any{"intent": "fixed", "slots": map[string]any{}})
	app(2, 9003, "machine.transition", "triage.fix", map[string]any{"from": "triage.fix", "intent": "fixed", "slots": map[string]any{}, "to": "triage.report"})
	app(2, 9004, "world.update", "triage.fix", map[string]any{"increment": map[string]any{"attempts": 1}})
	app(2, 9005, "machine.state_exited", "triage.fix", map[string]any{"state": "triage.fix"})
	app(2, 9006, "machine.state_entered", "triage.report", map[string]any{"state": "triage.report"})
	app(2, 9007, "turn.end", "triage.fix", map[string]any{"outcome": "transitioned", "to": "triage.report"})

	// Turn 3: the summary call times out; the on_error path reports.
	call(3, 10000, "agent.call.start", "triage.report", "5566778899aabbcc", start{Verb: "ask", Agent: "agent.claude", Model: "claude-haiku-4-5", Prompt: "Summarise the fix for the PR."})
	call(3, 40000, "agent.call.error", "triage.report", "5566778899aabbcc", map[string]any{"verb": "ask", "agent": "agent.claude", "duration_ms": 30000, "error": "agent: deadline_exceeded: no answer within 30s"})
	app(3, 40001, "harness.error", "triage.report", map[string]any{"phase": "invoke", "error": "agent: deadline_exceeded: no answer within 30s"})
	app(3, 40002, "world.update", "triage.report", map[string]any{"set": map[string]any{"last_error": "agent: deadline_exceeded: no answer within 30s"}})
	app(3, 40003, "machine.say", "triage.report", map[string]any{"text": "Fixed TestParse; summary unavailable <timeout> & reported."})
	app(3, 40004, "mining.pass_ran", "triage.report", map[string]any{"trigger": "live", "sessions": 1})
	app(3, 40005, "machine.transition", "triage.report", map[string]any{"from": "triage.report", "intent": "", "slots": map[string]any{}, "to": "@exit:done"})
	return p
}

func TestGoldenTraceFixture(t *testing.T) {
	if golden.Update() {
		writeGoldenTrace(t, goldenDir)
	}
	p := filepath.Join(goldenDir, "run.jsonl")
	// The fixture is what the writer produces today.
	tmp := writeGoldenTrace(t, t.TempDir())
	got, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, p, got)
	for _, sc := range []string{"a1b2c3d4e5f60718.txt", "a1b2c3d4e5f60718-response.json"} {
		if _, err := os.Stat(filepath.Join(goldenDir, promptsDir, sc)); err != nil {
			t.Fatalf("sidecar %s: %v", sc, err)
		}
	}
	assertRoundTrip(t, p)
	res, err := VerifyFile(p)
	if err != nil || res.Turns != 4 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestGoldenTimeline(t *testing.T) {
	f, err := os.Open(filepath.Join(goldenDir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(f, ReadOptions{})
	tl := &Timeline{}
	var b strings.Builder
	for {
		ev, err := rd.Next()
		if err != nil {
			break
		}
		if ln, ok := tl.Feed(&ev); ok {
			fmt.Fprintf(&b, "T%d %-6s %s\n", ln.Turn, ln.Label, ln.Text)
		}
	}
	golden.CheckString(t, filepath.Join(goldenDir, "timeline.golden"), b.String())
}

func TestGoldenStats(t *testing.T) {
	st := NewStats()
	for range 2 { // the same file twice: totals add up
		f, err := os.Open(filepath.Join(goldenDir, "run.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddTrace(f, f.Name()); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	st.Finish()
	b, _ := json.MarshalIndent(st, "", "  ")
	golden.CheckString(t, filepath.Join(goldenDir, "stats.golden.json"), string(b)+"\n")
	if st.Calls != 8 || st.CallErrors != 2 || st.Fallbacks != 2 || st.ErrorsByKind["deadline_exceeded"] != 2 {
		t.Fatalf("%+v", st)
	}
}

func TestGoldenOTLP(t *testing.T) {
	f, err := os.Open(filepath.Join(goldenDir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if err := ExportOTLP(f, f.Name(), &out, OTLPOptions{ServiceVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	golden.CheckString(t, filepath.Join(goldenDir, "otlp.golden.json"), out.String())
	checkOTLP(t, out.Bytes(), 4+2+1) // 4 agent calls, 2 host calls (host.run, a failed call with no namespace), 1 run span
}

// checkOTLP decodes the OTLP/JSON structure a collector expects and checks
// ids, times and the GenAI attributes.
func checkOTLP(t *testing.T, data []byte, wantSpans int) {
	t.Helper()
	var req struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []otlpAttr `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Scope struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"scope"`
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		t.Fatalf("not OTLP/JSON: %v", err)
	}
	spans := req.ResourceSpans[0].ScopeSpans[0].Spans
	if len(spans) != wantSpans {
		t.Fatalf("%d spans, want %d", len(spans), wantSpans)
	}
	var root string
	ids := map[string]bool{}
	genai := 0
	for _, s := range spans {
		if len(s.TraceID) != 32 || len(s.SpanID) != 16 || s.TraceID != spans[0].TraceID || ids[s.SpanID] {
			t.Fatalf("bad ids in %+v", s)
		}
		ids[s.SpanID] = true
		if s.StartTimeUnixNano > s.EndTimeUnixNano && len(s.StartTimeUnixNano) == len(s.EndTimeUnixNano) {
			t.Fatalf("span ends before it starts: %+v", s)
		}
		if s.ParentSpanID == "" {
			root = s.SpanID
		}
		keys := map[string]bool{}
		for _, a := range s.Attributes {
			keys[a.Key] = true
		}
		if keys["gen_ai.request.model"] && keys["gen_ai.operation.name"] {
			genai++
		}
	}
	for _, s := range spans {
		if s.ParentSpanID != "" && s.ParentSpanID != root {
			t.Fatalf("span %s has unknown parent", s.Name)
		}
	}
	if genai == 0 {
		t.Fatal("no span carries gen_ai.operation.name and gen_ai.request.model")
	}
}

func TestGoldenCassette(t *testing.T) {
	p := filepath.Join(goldenDir, "run.jsonl")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	res, err := ToCassette(f, p, &out, CassetteOptions{TracePath: p})
	if err != nil {
		t.Fatal(err)
	}
	if res.Episodes != 4 || len(res.Skipped) != 0 {
		t.Fatalf("%+v", res)
	}
	golden.CheckString(t, filepath.Join(goldenDir, "cassette.golden.yaml"), out.String())
	// From stdin the response sidecar cannot be read: a clear error.
	data, _ := os.ReadFile(p)
	_, err = ToCassette(bytes.NewReader(data), "-", &bytes.Buffer{}, CassetteOptions{})
	if err == nil || !strings.Contains(err.Error(), "pass the trace as a file path") {
		t.Fatalf("stdin with sidecar: %v", err)
	}
}
