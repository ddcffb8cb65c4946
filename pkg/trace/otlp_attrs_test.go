package trace

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOTLPGenAIAttributes checks the GenAI semantic-convention names of an
// agent call's span: the model asked for and the one a fallback answered
// with, sampling parameters from with:, JSON output under a schema, cache
// tokens and the de-facto cost attribute; a failed call has no response
// model.
func TestOTLPGenAIAttributes(t *testing.T) {
	trace := strings.Join([]string{
		`{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:00:00Z","app_id":"app"}`,
		`{"turn":1,"seq":0,"ts":"2026-11-30T09:00:01Z","kind":"agent.call.start","call_id":"c1","payload":{"verb":"decide","agent":"local","alias":"local","provider":"llama.cpp","model":"qwen2.5-1.5b","schema":{"type":"object"},"with":{"temperature":0.2,"max_tokens":256,"seed":7,"top_p":"high"}}}`,
		`{"turn":1,"seq":1,"ts":"2026-11-30T09:00:02Z","kind":"agent.call.complete","call_id":"c1","payload":{"agent":"local","model":"claude-haiku-4-5","duration_ms":900,"meta":{"cost_usd":0.0004,"usage":{"input_tokens":210,"output_tokens":12,"cache_read_input_tokens":180,"cache_creation_input_tokens":30}},"substitution":{"fallback_plugin":"agent.claude","original_plugin":"local","reason":"schema_invalid"}}}`,
		`{"turn":1,"seq":2,"ts":"2026-11-30T09:00:03Z","kind":"agent.call.start","call_id":"c2","payload":{"verb":"decide","agent":"agent.claude","model":"claude-sonnet-4-6"}}`,
		`{"turn":1,"seq":3,"ts":"2026-11-30T09:00:04Z","kind":"agent.call.error","call_id":"c2","payload":{"agent":"agent.claude","duration_ms":10,"error":"agent: transport_error: refused"}}`,
		``,
	}, "\n")
	var out bytes.Buffer
	if err := ExportOTLP(strings.NewReader(trace), "t.jsonl", &out, OTLPOptions{}); err != nil {
		t.Fatal(err)
	}
	spans := otlpSpans(t, out.Bytes())
	ok, failed := spans["c1"], spans["c2"]
	for k, want := range map[string]string{
		"gen_ai.operation.name":                    "invoke_agent",
		"gen_ai.provider.name":                     "llama.cpp",
		"gen_ai.request.model":                     "qwen2.5-1.5b",
		"gen_ai.response.model":                    "claude-haiku-4-5",
		"gen_ai.output.type":                       "json",
		"gen_ai.request.temperature":               "0.2",
		"gen_ai.request.max_tokens":                "256",
		"gen_ai.request.seed":                      "7",
		"gen_ai.usage.input_tokens":                "210",
		"gen_ai.usage.output_tokens":               "12",
		"gen_ai.usage.cache_read.input_tokens":     "180",
		"gen_ai.usage.cache_creation.input_tokens": "30",
		"gen_ai.usage.cost":                        "0.0004",
	} {
		if ok[k] != want {
			t.Errorf("c1 %s = %q, want %q", k, ok[k], want)
		}
	}
	if _, has := ok["gen_ai.request.top_p"]; has {
		t.Errorf("c1: a with: value that is not a number became gen_ai.request.top_p")
	}
	if failed["gen_ai.request.model"] != "claude-sonnet-4-6" || failed["error.type"] != "transport_error" || failed["gen_ai.provider.name"] != "anthropic" {
		t.Errorf("c2 attributes %v", failed)
	}
	for _, k := range []string{"gen_ai.response.model", "gen_ai.output.type"} {
		if _, has := failed[k]; has {
			t.Errorf("c2 (failed, no schema) has %s", k)
		}
	}
}

// otlpSpans maps each agent call's kitsoki.call_id to its attributes,
// every value as its JSON text.
func otlpSpans(t *testing.T, data []byte) map[string]map[string]string {
	t.Helper()
	var req struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		t.Fatalf("not OTLP/JSON: %v", err)
	}
	out := map[string]map[string]string{}
	for _, s := range req.ResourceSpans[0].ScopeSpans[0].Spans {
		m := map[string]string{}
		for _, a := range s.Attributes {
			switch v := a.Value; {
			case v.StringValue != nil:
				m[a.Key] = *v.StringValue
			case v.IntValue != nil:
				m[a.Key] = *v.IntValue
			case v.DoubleValue != nil:
				b, _ := json.Marshal(*v.DoubleValue)
				m[a.Key] = string(b)
			}
		}
		if id := m["kitsoki.call_id"]; id != "" {
			out[id] = m
		}
	}
	return out
}

// TestOTLPContentIsOptIn checks that prompts and answers leave the trace
// only with Content: inline and from the trace's sidecars, clipped, and
// named in kitsoki.content_error when a sidecar cannot be read.
func TestOTLPContentIsOptIn(t *testing.T) {
	path := filepath.Join(goldenDir, "run.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	export := func(opt OTLPOptions) map[string]map[string]string {
		var out bytes.Buffer
		if err := ExportOTLP(bytes.NewReader(data), path, &out, opt); err != nil {
			t.Fatal(err)
		}
		return otlpSpans(t, out.Bytes())
	}
	for id, attrs := range export(OTLPOptions{}) {
		for k := range attrs {
			if strings.Contains(k, "messages") || strings.Contains(k, "instructions") || strings.Contains(k, "content") {
				t.Errorf("call %s exports %s without Content", id, k)
			}
		}
	}
	spans := export(OTLPOptions{Content: true, TracePath: path})
	// a1b2…: prompt and response in sidecars; 0f1e…: inline prompt and response.
	side, inline := spans["a1b2c3d4e5f60718"], spans["0f1e2d3c4b5a6978"]
	prompt, err := os.ReadFile(filepath.Join(goldenDir, "agent-prompts", "a1b2c3d4e5f60718.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var in []contentMessage
	if err := json.Unmarshal([]byte(side["gen_ai.input.messages"]), &in); err != nil || len(in) != 1 || in[0].Role != "user" || in[0].Parts[0].Content != string(prompt) {
		t.Errorf("sidecar prompt: %v %q", err, side["gen_ai.input.messages"])
	}
	if !strings.Contains(side["gen_ai.output.messages"], `"role":"assistant"`) || side["kitsoki.content_error"] != "" {
		t.Errorf("sidecar response: %q (error %q)", side["gen_ai.output.messages"], side["kitsoki.content_error"])
	}
	if !strings.Contains(inline["gen_ai.input.messages"], "Extract the failing test name.") || !strings.Contains(inline["gen_ai.output.messages"], `{\"test\":\"TestParse\"}`) {
		t.Errorf("inline: %q %q", inline["gen_ai.input.messages"], inline["gen_ai.output.messages"])
	}
	// From standard input the sidecars cannot be read: said, not dropped.
	spans = export(OTLPOptions{Content: true, TracePath: "-"})
	if e := spans["a1b2c3d4e5f60718"]["kitsoki.content_error"]; !strings.Contains(e, "agent-prompts/a1b2c3d4e5f60718.txt (the trace was read from standard input") {
		t.Errorf("stdin: content_error %q", e)
	}
	if c := clipContent(strings.Repeat("é", maxContentBytes)); len(c) > maxContentBytes+64 || !strings.HasSuffix(c, "…[65536 more bytes in the trace]") || !utf8.ValidString(c) {
		t.Errorf("clipped to %d bytes: %q", len(c), c[len(c)-40:])
	}
}
