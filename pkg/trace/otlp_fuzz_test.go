package trace

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// otlpProgram turns fuzz bytes into a trace of many agent and host calls:
// each three bytes are one event (its kind; its call id, namespace and
// duration_ms; its clock step, which may go back, -128 a century).
// Calls interleave, nest (an agent call inside a host.agent.* call), reuse
// ids, never end, or end twice. It returns the trace and how many agent calls it holds (a result
// with no open call of its id is a call of its own).
func otlpProgram(t *testing.T, prog []byte) ([]byte, int) {
	head, err := encodeHeader(Header{WrittenAt: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC), AppID: "fuzz", Story: "app.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"agent.call.start", "agent.call.complete", "agent.call.error", "harness.called", "harness.dispatched",
		"harness.returned", "harness.error", "machine.say", "turn.start", "agent.call.start"}
	namespaces := []string{"host.agent.ask", "host.run", "", "host.agent.decide"}
	durations := []string{"", `"duration_ms":0,`, `"duration_ms":7,`, `"duration_ms":-7,`, `"duration_ms":1e300,`,
		`"duration_ms":-1e300,`, `"duration_ms":9.2e15,`, `"duration_ms":1.5,`}
	data := slices.Clone(head)
	ts := time.Date(2026, 12, 5, 0, 0, 1, 0, time.UTC)
	open := map[string]bool{}
	calls, turn, seq := 0, 1, 0
	for i := 0; i+2 < len(prog) && i < 3*200; i += 3 {
		op, arg, step := prog[i], prog[i+1], int8(prog[i+2])
		kind := kinds[int(op)%len(kinds)]
		id := "c" + strconv.Itoa(int(arg)%4)
		ns := namespaces[int(arg>>2)%len(namespaces)]
		dur := durations[int(arg>>4)%len(durations)]
		ts = ts.Add(time.Duration(step) * time.Millisecond)
		if step == -128 { // a clock set a century back: before 1970
			ts = ts.AddDate(-100, 0, 0)
		}
		ev := Event{Turn: turn, Seq: seq, TS: ts, Kind: kind}
		seq++
		var payload string
		switch kind {
		case "agent.call.start":
			ev.CallID = id
			payload = `{"verb":"decide","agent":"agent.claude","model":"m","prompt":"p","with":{"temperature":0.5}}`
		case "agent.call.complete":
			ev.CallID = id
			payload = `{` + dur + `"response":{"submission":{"a":1}},"meta":{"usage":{"input_tokens":1,"output_tokens":2},"cost_usd":0.1}}`
		case "agent.call.error":
			ev.CallID = id
			payload = `{` + dur + `"error":"agent: timeout: slow"}`
		case "harness.called", "harness.dispatched", "harness.returned":
			payload = `{"namespace":"` + ns + `"}`
		case "harness.error":
			payload = `{"namespace":"` + ns + `","error":"boom"}`
		case "machine.say":
			ev.CallID = id // a sub-event of the call open under id
			payload = `{"text":"hi"}`
		case "turn.start":
			turn, seq = turn+1, 0
			ev.Turn, ev.Seq = turn, 0
			seq++
			payload = `{}`
		}
		if IsAgentCallKind(kind) {
			if !open[id] {
				calls++
			}
			open[id] = kind == "agent.call.start"
		}
		ev.Payload = json.RawMessage(payload)
		b, err := encodeEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b...)
	}
	return data, calls
}

// exportedSpan is a span of the export as a collector reads it.
type exportedSpan struct {
	TraceID      string `json:"traceId"`
	SpanID       string `json:"spanId"`
	ParentSpanID string `json:"parentSpanId"`
	Name         string `json:"name"`
	Kind         int    `json:"kind"`
	Start        string `json:"startTimeUnixNano"`
	End          string `json:"endTimeUnixNano"`
	Attributes   []struct {
		Key   string `json:"key"`
		Value struct {
			IntValue *string `json:"intValue"`
		} `json:"value"`
	} `json:"attributes"`
	Status *struct {
		Code int `json:"code"`
	} `json:"status"`
}

// FuzzExportOTLP: a trace of many calls, interleaved, nested, unfinished
// or cut anywhere, exports as one OTLP document whose spans a collector
// takes: one trace id; unique span ids; the run span last and the only
// root; a host span under the run; an agent span under the run or a
// host.agent.* span; every parent a span of the export; times unsigned
// nanoseconds, no span ending before it starts; one span per agent call;
// a cut trace's run span an error.
func FuzzExportOTLP(f *testing.F) {
	f.Add([]byte{3, 0, 1, 0, 0, 1, 7, 0, 1, 1, 0, 5, 5, 0, 1}, uint16(0))                       // host.agent.ask > agent call > say
	f.Add([]byte{0, 0, 1, 0, 1, 1, 1, 1, 2, 2, 0, 3, 0, 0, 1, 1, 0xf0, 1}, uint16(0))           // interleaved, one reused, one huge
	f.Add([]byte{4, 4, 1, 3, 4, 1, 3, 12, 1, 0, 2, 1, 5, 12, 255, 6, 8, 1, 5, 4, 1}, uint16(0)) // dispatched+called pairs, nested, errors
	f.Add([]byte{0, 0, 1, 8, 0, 1, 0, 1, 200, 2, 0x30, 1, 3, 0, 1}, uint16(40))                 // clock back, negative duration, cut
	f.Add([]byte{1, 0x40, 1, 2, 0x50, 1, 5, 2, 1, 6, 2, 1}, uint16(0))                          // results and returns with nothing open
	f.Add([]byte{0, 0, 1, 1, 0x30, 1, 0, 1, 1, 1, 0x41, 1, 0, 2, 1, 2, 0x62, 1}, uint16(0))     // duration_ms -7, 1e300, 9.2e15
	f.Add([]byte{0, 0, 0x80, 1, 0x20, 1, 3, 4, 1}, uint16(0))                                   // before 1970
	f.Fuzz(func(t *testing.T, prog []byte, cut uint16) {
		data, calls := otlpProgram(t, prog)
		headLen := bytes.IndexByte(data, '\n') + 1
		cutAt := len(data)
		if cut > 0 && len(data) > headLen {
			cutAt = headLen + int(cut)%(len(data)-headLen)
		}
		var out bytes.Buffer
		rerr := ExportOTLP(bytes.NewReader(data[:cutAt]), "fuzz.jsonl", &out, OTLPOptions{Content: true})
		var doc struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []exportedSpan `json:"spans"`
				} `json:"scopeSpans"`
			} `json:"resourceSpans"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.ResourceSpans) != 1 || len(doc.ResourceSpans[0].ScopeSpans) != 1 {
			t.Fatalf("export is not one OTLP document (%v):\n%s", err, out.Bytes())
		}
		spans := doc.ResourceSpans[0].ScopeSpans[0].Spans
		if err := checkSpans(spans); err != nil {
			t.Fatalf("%v\n%s", err, out.Bytes())
		}
		run := spans[len(spans)-1]
		if rerr != nil && (run.Status == nil || run.Status.Code != statusError) {
			t.Fatalf("the trace cut at %d fails (%v) but its run span is no error", cutAt, rerr)
		}
		if cutAt < len(data) {
			return
		}
		if rerr != nil {
			t.Fatalf("whole trace: %v", rerr)
		}
		agents := 0
		for _, s := range spans {
			if s.Kind == spanKindClient {
				agents++
			}
		}
		if agents != calls {
			t.Fatalf("%d agent spans for %d agent calls:\n%s", agents, calls, out.Bytes())
		}
		if got := intAttr(run, "kitsoki.events"); got != strconv.Itoa(bytes.Count(data, []byte("\n"))-1) {
			t.Fatalf("kitsoki.events %s for %d events", got, bytes.Count(data, []byte("\n"))-1)
		}
	})
}

// checkSpans holds the span/parent invariants of one export.
func checkSpans(spans []exportedSpan) error {
	if len(spans) == 0 {
		return fmt.Errorf("no span")
	}
	run := spans[len(spans)-1]
	if !strings.HasPrefix(run.Name, "kitsoki run ") || run.ParentSpanID != "" {
		return fmt.Errorf("the last span %q (parent %q) is not the run", run.Name, run.ParentSpanID)
	}
	byID := map[string]exportedSpan{}
	for _, s := range spans {
		if _, dup := byID[s.SpanID]; dup {
			return fmt.Errorf("span id %s twice", s.SpanID)
		}
		byID[s.SpanID] = s
	}
	for _, s := range spans {
		if s.TraceID != run.TraceID || !hexOf(s.TraceID, 32) || !hexOf(s.SpanID, 16) {
			return fmt.Errorf("span %q: trace id %q, span id %q", s.Name, s.TraceID, s.SpanID)
		}
		start, err1 := strconv.ParseUint(s.Start, 10, 64)
		end, err2 := strconv.ParseUint(s.End, 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("span %q: times %q..%q are not unsigned nanoseconds", s.Name, s.Start, s.End)
		}
		if end < start {
			return fmt.Errorf("span %q ends (%d) before it starts (%d)", s.Name, end, start)
		}
		if s.SpanID == run.SpanID {
			continue
		}
		parent, ok := byID[s.ParentSpanID]
		switch {
		case !ok:
			return fmt.Errorf("span %q: parent %q is no span of the export", s.Name, s.ParentSpanID)
		case strings.HasPrefix(s.Name, "execute_tool ") && s.ParentSpanID != run.SpanID:
			return fmt.Errorf("host span %q is under %q, not the run", s.Name, parent.Name)
		case s.Kind == spanKindClient && s.ParentSpanID != run.SpanID && !strings.HasPrefix(parent.Name, "execute_tool host.agent."):
			return fmt.Errorf("agent span %q is under %q", s.Name, parent.Name)
		case s.Kind != spanKindClient && !strings.HasPrefix(s.Name, "execute_tool "):
			return fmt.Errorf("span %q is neither a host nor an agent call", s.Name)
		}
	}
	return nil
}

func intAttr(s exportedSpan, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key && a.Value.IntValue != nil {
			return *a.Value.IntValue
		}
	}
	return ""
}

func hexOf(s string, n int) bool {
	_, err := hex.DecodeString(s)
	return len(s) == n && err == nil
}
