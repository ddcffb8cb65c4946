package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func mustCreate(t testing.TB, h Header) (*Writer, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sessions", "run.jsonl")
	w, err := CreateWith(p, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, p
}

func readAll(t testing.TB, p string) (Header, []Event) {
	t.Helper()
	rd, err := OpenFile(p, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	h, err := rd.Header()
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return h, evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

func TestWriterFileShape(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 23, 56, 656169300, time.FixedZone("CET", 3600))
	w, p := mustCreate(t, Header{WrittenAt: at})
	ts := time.Date(2026, 11, 30, 9, 23, 56, 658392434, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Append(Event{Turn: 1, Seq: 99, TS: ts, Kind: "machine.transition", StatePath: "scouting",
		Payload: map[string]any{"to": "scouting", "from": "scouting", "intent": "scout", "slots": map[string]any{}}}))
	must(w.Append(Event{Turn: 1, TS: ts, Kind: "agent.call.start", StatePath: "reproducing", CallID: "b895786bdbf74051",
		EpisodeID: "recorded_host.agent.task_idle", Payload: struct {
			Verb       string `json:"verb"`
			Agent      string `json:"agent"`
			PromptFile string `json:"prompt_file"`
		}{"task", "reproducer", "agent-prompts/4f933c38df706535.txt"}}))
	must(w.Append(Event{Turn: 2, TS: ts.Add(-58392434), Kind: "session.note", Payload: json.RawMessage(`{ "b" : "<a&b>", "a":[1, 2] }`)}))
	must(w.Append(Event{Turn: 2, TS: ts, Kind: "harness.dispatched", Payload: nil}))
	must(w.Close())

	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T08:23:56.6561693Z"}
{"turn":1,"seq":0,"ts":"2026-11-30T09:23:56.658392434Z","kind":"machine.transition","state_path":"scouting","payload":{"from":"scouting","intent":"scout","slots":{},"to":"scouting"}}
{"turn":1,"seq":1,"ts":"2026-11-30T09:23:56.658392434Z","kind":"agent.call.start","state_path":"reproducing","call_id":"b895786bdbf74051","episode_id":"recorded_host.agent.task_idle","payload":{"verb":"task","agent":"reproducer","prompt_file":"agent-prompts/4f933c38df706535.txt"}}
{"turn":2,"seq":0,"ts":"2026-11-30T09:23:56.6Z","kind":"session.note","payload":{"b":"\u003ca\u0026b\u003e","a":[1,2]}}
{"turn":2,"seq":1,"ts":"2026-11-30T09:23:56.658392434Z","kind":"harness.dispatched","payload":{}}
`
	if string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriterZeroTimestampIsNowUTC(t *testing.T) {
	w, p := mustCreate(t, Header{AppID: "demo"})
	before := time.Now()
	if err := w.Append(Event{Turn: 0, Kind: "x"}); err != nil {
		t.Fatal(err)
	}
	h, evs := readAll(t, p)
	if h.AppID != "demo" || h.SchemaVersion != 1 || h.WrittenAt.Before(before.Add(-time.Minute)) {
		t.Fatalf("header %+v", h)
	}
	if evs[0].TS.Before(before) || evs[0].TS.Location() != time.UTC {
		t.Fatalf("ts %v", evs[0].TS)
	}
	raw, _ := os.ReadFile(p)
	if !bytes.Contains(raw, []byte(`Z","kind":"x"`)) {
		t.Fatalf("ts not written in UTC Z form: %s", raw)
	}
}

func TestWriterDenseSeqPerTurn(t *testing.T) {
	w, p := mustCreate(t, Header{})
	turns := []int{0, 0, 0, 1, 1, 3, 3, 3, 3}
	for _, tn := range turns {
		if err := w.Append(Event{Turn: tn, Seq: -5, Kind: "k"}); err != nil {
			t.Fatal(err)
		}
	}
	_, evs := readAll(t, p)
	wantSeq := []int{0, 1, 2, 0, 1, 0, 1, 2, 3}
	for i, ev := range evs {
		if ev.Turn != turns[i] || ev.Seq != wantSeq[i] || ev.Line != i+2 {
			t.Fatalf("event %d: turn %d seq %d line %d", i, ev.Turn, ev.Seq, ev.Line)
		}
	}
}

func TestWriterRejectsBackwardTurn(t *testing.T) {
	w, p := mustCreate(t, Header{})
	if err := w.Append(Event{Turn: 3, Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	err := w.Append(Event{Turn: 0, Kind: "session.story"})
	if err == nil || !strings.Contains(err.Error(), "turn 0 comes after turn 3") {
		t.Fatalf("got %v", err)
	}
	if _, err := VerifyFile(p); err != nil {
		t.Fatalf("trace no longer verifies: %v", err)
	}
}

// TestWriterRejectsNegativeTurn: the reader (as upstream's) rejects a
// negative turn even on the first event, so the writer must not write one.
func TestWriterRejectsNegativeTurn(t *testing.T) {
	w, p := mustCreate(t, Header{})
	err := w.Append(Event{Turn: -1, Kind: "k"})
	if err == nil || !strings.Contains(err.Error(), "turn -1 is negative") {
		t.Fatalf("got %v", err)
	}
	if err := w.Append(Event{Turn: 0, Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyFile(p); err != nil {
		t.Fatalf("trace no longer verifies: %v", err)
	}
}

func TestWriterWriteTimeRules(t *testing.T) {
	nfd := "e\u0301" // e + combining acute: NFD of é
	cases := []struct {
		name string
		ev   Event
		want string
	}{
		{"empty kind", Event{}, "kind is empty"},
		{"header kind", Event{Kind: headerKind}, "reserved for line 1"},
		{"kind with LF", Event{Kind: "a\nb"}, "line feed"},
		{"state with CR", Event{Kind: "k", StatePath: "a\rb"}, "carriage return"},
		{"call id with NUL", Event{Kind: "k", CallID: "a\x00"}, "NUL byte"},
		{"kind NFD", Event{Kind: "k" + nfd}, "must be NFC"},
		{"state invalid utf8", Event{Kind: "k", StatePath: "\xff"}, "not valid UTF-8"},
		{"payload NFD value", Event{Kind: "k", Payload: map[string]any{"say": "caf" + nfd}}, "payload string contains NFD-normalised unicode (must be NFC)"},
		{"payload NFD key", Event{Kind: "k", Payload: map[string]string{nfd: "x"}}, "must be NFC"},
		{"payload NFD escaped", Event{Kind: "k", Payload: json.RawMessage(`{"a":"e\u0301"}`)}, "must be NFC"},
		{"payload NaN", Event{Kind: "k", Payload: map[string]any{"x": math.NaN()}}, "payload contains NaN"},
		{"payload Inf", Event{Kind: "k", Payload: []float64{math.Inf(1)}}, "payload contains +Inf"},
		{"raw NUL", Event{Kind: "k", Payload: json.RawMessage("{\"a\":\"\x00\"}")}, "payload contains NUL byte"},
		{"raw invalid", Event{Kind: "k", Payload: json.RawMessage(`{"a":`)}, "payload is not valid JSON"},
		{"raw CRLF", Event{Kind: "k", Payload: json.RawMessage("{\"a\":\"x\r\ny\"}")}, "payload is not valid JSON"},
		{"payload unencodable", Event{Kind: "k", Payload: make(chan int)}, "does not encode as JSON"},
	}
	w, p := mustCreate(t, Header{})
	before, _ := os.ReadFile(p)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.Append(c.ev)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "trace: append ") {
				t.Fatalf("error does not name the operation: %v", err)
			}
		})
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Fatalf("rejected events wrote bytes:\n%s", after)
	}
	// NFC text, escaped NUL and literal non-ASCII are fine.
	ok := Event{Kind: "k", Payload: map[string]any{"say": "café — ok", "nul": "a\x00b", "crlf": "a\r\nb"}}
	if err := w.Append(ok); err != nil {
		t.Fatal(err)
	}
	_, evs := readAll(t, p)
	var got map[string]string
	if err := json.Unmarshal(evs[0].Payload.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if got["say"] != "café — ok" || got["nul"] != "a\x00b" || got["crlf"] != "a\r\nb" {
		t.Fatalf("payload %q", got)
	}
}

func TestWriterLock(t *testing.T) {
	w, p := mustCreate(t, Header{})
	if err := w.Append(Event{Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)
	_, err := CreateWith(p, Header{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "trace file is locked by another writer") || !errors.Is(err, errTraceLocked) {
		t.Fatalf("second writer: %v", err)
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Fatal("second Create touched the locked file")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := w.Append(Event{Kind: "k"}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("append after close: %v", err)
	}
	w2, err := CreateWith(p, Header{}, Options{})
	if err != nil {
		t.Fatalf("create after close: %v", err)
	}
	w2.Close()
}

func TestPromptRef(t *testing.T) {
	w, p := mustCreate(t, Header{})
	small := strings.Repeat("a", sidecarThreshold)
	got, err := w.PromptRef("c1", small)
	if err != nil || got["prompt"] != small || len(got) != 1 {
		t.Fatalf("small prompt: %v %v", got, err)
	}
	big := strings.Repeat("b", sidecarThreshold+1)
	got, err = w.PromptRef("c2", big)
	if err != nil || got["prompt_file"] != "agent-prompts/c2.txt" || len(got) != 1 {
		t.Fatalf("big prompt: %v %v", got, err)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(p), "agent-prompts", "c2.txt"))
	if err != nil || string(data) != big {
		t.Fatalf("sidecar: %v", err)
	}
	if got, _ := w.PromptRef("c3", ""); len(got) != 0 {
		t.Fatalf("empty prompt: %v", got)
	}
	if _, err := w.PromptRef("../x", big); err == nil || !strings.Contains(err.Error(), "sidecar") {
		t.Fatalf("unsafe call id accepted: %v", err)
	}
	resp := json.RawMessage(`{"submission":"` + strings.Repeat("r", 2000) + `"}`)
	rr, err := w.ResponseRef("c4", resp)
	if err != nil || rr["response_file"] != "agent-prompts/c4-response.json" {
		t.Fatalf("response ref %v %v", rr, err)
	}
	sp, err := resolveSidecar(p, "agent-prompts/c4-response.json")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(sp); !bytes.Equal(b, resp) {
		t.Fatal("response sidecar content differs")
	}
	for _, bad := range []string{"../secret", "/etc/passwd", "agent-prompts/../../x", "agent-prompts/"} {
		if _, err := resolveSidecar(p, bad); err == nil {
			t.Fatalf("resolveSidecar accepted %q", bad)
		}
	}
}

func TestEmitOffloadsKeepingKeyOrder(t *testing.T) {
	w, p := mustCreate(t, Header{})
	emit := func(kind, callID string, payload any) error {
		return w.Append(Event{Turn: 2, StatePath: "triage.decide", Kind: kind, CallID: callID, Payload: payload})
	}
	big := strings.Repeat("p", 1500)
	type start struct {
		Verb   string `json:"verb"`
		Agent  string `json:"agent"`
		Prompt string `json:"prompt"`
		Input  any    `json:"input"`
	}
	if err := emit("agent.call.start", "abc123", start{"decide", "agent.claude", big, map[string]any{"schema_path": "s.json"}}); err != nil {
		t.Fatal(err)
	}
	if err := emit("agent.call.complete", "abc123", map[string]any{"verb": "decide", "duration_ms": 12, "response": map[string]any{"submission": strings.Repeat("x", 1100)}}); err != nil {
		t.Fatal(err)
	}
	if err := emit("agent.call.start", "small1", start{Verb: "ask", Prompt: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := emit("machine.say", "", map[string]any{"text": big}); err != nil {
		t.Fatal(err)
	}
	_, evs := readAll(t, p)
	p0 := string(evs[0].Payload.(json.RawMessage))
	if p0 != `{"verb":"decide","agent":"agent.claude","prompt_file":"agent-prompts/abc123.txt","input":{"schema_path":"s.json"}}` {
		t.Fatalf("start payload %s", p0)
	}
	if evs[0].Turn != 2 || evs[0].StatePath != "triage.decide" || evs[0].CallID != "abc123" || evs[1].Seq != 1 {
		t.Fatalf("position not stamped: %+v", evs[0])
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "agent-prompts", "abc123.txt")); string(b) != big {
		t.Fatal("prompt sidecar content")
	}
	if p1 := string(evs[1].Payload.(json.RawMessage)); p1 != `{"duration_ms":12,"response_file":"agent-prompts/abc123-response.json","verb":"decide"}` {
		t.Fatalf("complete payload %s", p1)
	}
	if p2 := string(evs[2].Payload.(json.RawMessage)); !strings.Contains(p2, `"prompt":"hi"`) {
		t.Fatalf("small prompt not inline: %s", p2)
	}
	if p3 := string(evs[3].Payload.(json.RawMessage)); !strings.Contains(p3, big) {
		t.Fatal("non-agent payload was offloaded")
	}
}

func TestWriterConcurrentEmit(t *testing.T) {
	w, p := mustCreate(t, Header{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range 25 {
				if err := w.Append(Event{Turn: 1, StatePath: "s", Kind: "agent.stream", CallID: "c", Payload: map[string]int{"i": i}}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	res, err := VerifyFile(p)
	if err != nil || res.Events != 200 || res.Turns != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestRoundTripByteIdentical(t *testing.T) {
	w, p := mustCreate(t, Header{AppID: "cloak", Story: "examples/cloak/app.yaml", Generator: "kitsoki test"})
	payloads := []any{
		map[string]any{"text": "café — “quoted” <b> & \u2028 sep", "n": 1.5e300, "neg": math.Copysign(0, -1), "big": 12345678901234567890.0},
		json.RawMessage(`{"z":1,"a":{"y":[true,false,null],"x":"\u00e9\n\t\\"}}`),
		[]any{"a", 1, nil},
		"just a string",
		nil,
	}
	for i, pl := range payloads {
		ev := Event{Turn: i / 2, Kind: "kind." + string(rune('a'+i)), StatePath: "s.t", Payload: pl}
		if i == 1 {
			ev.CallID, ev.EpisodeID, ev.MatchIdx, ev.ParentTurn = "0123456789abcdef", "ep", 3, 7
		}
		if err := w.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	assertRoundTrip(t, p)
	assertRoundTrip(t, "testdata/ok_blank_lines.jsonl") // blank lines are dropped on re-encode
}

// assertRoundTrip reads a trace and encodes it back, expecting the same bytes
// minus blank lines.
func assertRoundTrip(t *testing.T, p string) {
	t.Helper()
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	h, evs := readAll(t, p)
	var out bytes.Buffer
	hl, err := encodeHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	out.Write(hl)
	for _, ev := range evs {
		l, err := encodeEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(l)
	}
	want := bytes.ReplaceAll(orig, []byte("\n\n"), []byte("\n"))
	want = bytes.ReplaceAll(want, []byte("\n\n"), []byte("\n"))
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("round trip differs:\n got %s\nwant %s", out.Bytes(), want)
	}
}

// encodeEvent returns the line (with its trailing LF) for ev exactly as the writer
// writes it, using ev.Seq as given and ev.TS converted to UTC. A payload that
// is a json.RawMessage is compacted and HTML-escaped as encoding/json does;
// anything else is marshalled. encodeEvent applies no write-time rule: the Writer
// does. Reading a trace and encoding its events gives back the same bytes.
func encodeEvent(ev Event) ([]byte, error) {
	payload, err := marshalPayload(ev.Payload)
	if err != nil {
		return nil, fmt.Errorf("trace: encode %s event: %w", ev.Kind, err)
	}
	return encodeWire(&ev, payload)
}

// PromptRef returns the payload fields that carry prompt for the agent call
// callID: {"prompt_file": "agent-prompts/<call_id>.txt"} after writing the
// prompt raw to that file beside the trace when it is longer than
// sidecarThreshold bytes, {"prompt": prompt} otherwise, and an empty map for
// an empty prompt. Merge the result into the agent.call.start payload.
func (w *Writer) PromptRef(callID, prompt string) (map[string]any, error) {
	if prompt == "" {
		return map[string]any{}, nil
	}
	if len(prompt) <= sidecarThreshold {
		return map[string]any{"prompt": prompt}, nil
	}
	rel, err := w.writeSidecar(callID, ".txt", []byte(prompt))
	if err != nil {
		return nil, err
	}
	return map[string]any{"prompt_file": rel}, nil
}

// ResponseRef is PromptRef for an agent response (JSON): over
// sidecarThreshold bytes it goes to agent-prompts/<call_id>-response.json and
// the result is {"response_file": ...}; otherwise {"response": response}.
func (w *Writer) ResponseRef(callID string, response json.RawMessage) (map[string]any, error) {
	if len(response) == 0 {
		return map[string]any{}, nil
	}
	if len(response) <= sidecarThreshold {
		return map[string]any{"response": response}, nil
	}
	rel, err := w.writeSidecar(callID, "-response.json", response)
	if err != nil {
		return nil, err
	}
	return map[string]any{"response_file": rel}, nil
}
