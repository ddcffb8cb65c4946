package trace_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/trace"
)

// A hostile trace's strings (a prompt, a model, an answer, an input key)
// holding terminal escapes, bidi controls, invisible characters, lines a
// CI runner reads as commands and YAML document markers print nothing raw
// through `trace to-cassette -o -` (bidi and zero-width characters and a
// mid-line `##[` passed the YAML encoder raw), and the cassette written
// reads back every value exactly.
func TestToCassetteHostileStringsPrintEscapedAndReadBackExact(t *testing.T) {
	nasty := "line1\n::error file=x::pwn\n  ::warning::w\n##[error]zz ##vso[task] \u202eevil\u200b\u2028\u0085\ufeff\U000e0041\x1b[31m\x1b]8;;http://x\x07\n---\n...\n"
	start := map[string]any{"turn": 1, "seq": 0, "ts": "2026-11-30T09:00:01Z", "kind": "agent.call.start", "state_path": "s", "call_id": "c1",
		"payload": map[string]any{"verb": "decide", "agent": "agent.x", "model": "m\u202ex", "prompt": nasty, "input": map[string]any{"k\u202e##[x]": nasty}}}
	done := map[string]any{"turn": 1, "seq": 1, "ts": "2026-11-30T09:00:02Z", "kind": "agent.call.complete", "state_path": "s", "call_id": "c1",
		"payload": map[string]any{"verb": "decide", "agent": "agent.x", "model": "m\u202ex", "duration_ms": 1, "response": nasty}}
	var in bytes.Buffer
	in.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:00:00Z","app_id":"x"}` + "\n")
	for _, ev := range []any{start, done} {
		b, _ := json.Marshal(ev)
		in.Write(append(b, '\n'))
	}
	var out bytes.Buffer
	if _, err := trace.ToCassette(&in, "t.jsonl", &out, trace.CassetteOptions{Source: "t\n::error::src\u202e.jsonl"}); err != nil {
		t.Fatal(err)
	}
	if p := termsafe.Printable(out.String()); p != out.String() {
		t.Errorf("the cassette printed raw what a terminal or runner obeys:\n%s", out.String())
	}
	c, err := agent.ParseCassette("c.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("the cassette does not read back: %v\n%s", err, out.String())
	}
	if len(c.Episodes) != 1 || c.Episodes[0].Agent == nil {
		t.Fatalf("episodes %+v", c.Episodes)
	}
	ag := c.Episodes[0].Agent
	if ag.Prompt != nasty || ag.Model != "m\u202ex" {
		t.Errorf("prompt %q model %q: not the trace's values", ag.Prompt, ag.Model)
	}
	if got, _ := ag.Input.(map[string]any); got["k\u202e##[x]"] != nasty {
		t.Errorf("input %#v", ag.Input)
	}
	if want, _ := json.Marshal(nasty); ag.Response != string(want) && ag.Response != nasty {
		t.Errorf("response %q", ag.Response)
	}
	if strings.Contains(out.String(), "\n---") {
		t.Errorf("a second YAML document was forged:\n%s", out.String())
	}
}
