package trace

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// FuzzCallPayloads: any payloads on an agent call's start and end events,
// as `trace calls` pairs them and the OTLP export turns them into spans: no
// panic, a call's stray lines stay bounded, and an export that succeeds is
// one JSON document of bounded size.
func FuzzCallPayloads(f *testing.F) {
	head, _, _ := bytes.Cut(synthBytes(f, 1), []byte("\n"))
	f.Add([]byte(`{"verb":"decide","agent":"agent.claude","model":"m","prompt":"p","input":{"schema_path":"s.json"},"with":{"a":1}}`),
		[]byte(`{"verb":"decide","duration_ms":12,"usage":{"input_tokens":3,"output_tokens":4},"cost_usd":0.5,"response":{"submission":{"x":1}},"stray":["a",1,{"b":2}],"mcp_session_id":"s"}`), uint8(0))
	f.Add([]byte(`{"prompt_file":"../../etc/passwd","system_prompt":"\u0000"}`), []byte(`{"error":"schema_invalid: x","substitution":{"reason":"r"}}`), uint8(1))
	f.Add([]byte(`{"namespace":"host.agent.ask","args":{"agent":"a"}}`), []byte(`{"namespace":"host.agent.ask","error":"e","data":[1]}`), uint8(2))
	f.Add([]byte(`[1,2]`), []byte(`{"response":"{\"submission\":"}`), uint8(3))
	kinds := [][2]string{{"agent.call.start", "agent.call.complete"}, {"agent.call.start", "agent.call.error"},
		{"harness.called", "harness.returned"}, {"agent.call.start", "agent.call.start"}}
	f.Fuzz(func(t *testing.T, start, end []byte, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		ts := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
		evs := []*Event{{Turn: 1, Seq: 1, TS: ts, Kind: kind[0], CallID: "c", Payload: json.RawMessage(start)},
			{Turn: 1, Seq: 2, TS: ts.Add(time.Second), Kind: kind[1], CallID: "c", Payload: json.RawMessage(end)}}
		var tr CallTracker
		tr.KeepPrompt = true
		var calls []*Call
		for _, ev := range evs {
			if c := tr.Observe(ev); c != nil {
				calls = append(calls, c)
			}
		}
		for _, c := range append(calls, slices.Collect(tr.Open())...) {
			if len(c.Stray) > MaxStray+1 || slices.ContainsFunc(c.Stray, func(s string) bool { return len(s) > MaxStrayBytes+len("…") }) {
				t.Fatalf("stray unbounded: %d lines", len(c.Stray))
			}
			if c.Outcome != OutcomeOK && c.Outcome != OutcomeError && c.Outcome != OutcomeOpen {
				t.Fatalf("outcome %q", c.Outcome)
			}
		}
		data := append(slices.Clone(head), '\n')
		for _, ev := range evs {
			b, err := json.Marshal(ev)
			if err != nil {
				return // not JSON: the reader's own fuzz targets cover such lines
			}
			data = append(append(data, b...), '\n')
		}
		var out bytes.Buffer
		if err := ExportOTLP(bytes.NewReader(data), "fuzz.jsonl", &out, OTLPOptions{Content: true}); err != nil {
			return
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("export is not JSON:\n%s", out.Bytes())
		}
		if out.Len() > 64<<10+8*len(data) {
			t.Fatalf("export of %d bytes from a trace of %d", out.Len(), len(data))
		}
	})
}
