package trace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent call's transcript leaves the event for transcripts/<call_id>.jsonl
// (one event per line) and <call_id>.timings ("<index> <ms>", 0 without a
// timing), and the payload names it in place with transcript_ref, as the
// existing engine writes for its local_llm and claude calls (probed:
// kitsoki-existing's local_llm decide wrote transcripts/<id>.jsonl, three
// openai-chat events, a .timings of "0 0\n1 0\n2 0\n" and
// transcript_ref {format, path, events: 3, schema_version: 1}; ours wrote
// neither). Large strings in an event are not turned into blobs.
func TestAppendWritesTranscriptSidecar(t *testing.T) {
	w, p := mustCreate(t, Header{})
	big := strings.Repeat("y", blobThreshold+10)
	events := []json.RawMessage{
		json.RawMessage(`{"message":{"content":"hi","role":"user"},"type":"request"}`),
		json.RawMessage(`{"message":{"content":"` + big + `","role":"assistant"},"type":"assistant"}`),
		json.RawMessage(`{"result":"ok","type":"result"}`),
	}
	payload := map[string]any{"verb": "decide", "duration_ms": 3,
		"transcript": map[string]any{"format": "openai-chat", "events": events, "timings": []int{0, 7}}}
	if err := w.Append(Event{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: payload}); err != nil {
		t.Fatal(err)
	}
	// An error event with a transcript, and one whose transcript is empty.
	if err := w.Append(Event{Turn: 1, Kind: "agent.call.error", CallID: "c2", Payload: map[string]any{"error": "x",
		"transcript": map[string]any{"format": "f", "events": events[:1]}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Event{Turn: 1, Kind: "agent.call.complete", CallID: "c3", Payload: map[string]any{"verb": "ask",
		"transcript": map[string]any{"format": "f", "events": []any{}}}}); err != nil {
		t.Fatal(err)
	}
	_, evs := readAll(t, p)
	if got := string(evs[0].Payload.(json.RawMessage)); got != `{"duration_ms":3,"transcript_ref":{"format":"openai-chat","path":"transcripts/c1.jsonl","events":3,"schema_version":1},"verb":"decide"}` {
		t.Fatalf("complete payload %s", got)
	}
	if got := string(evs[1].Payload.(json.RawMessage)); got != `{"error":"x","transcript_ref":{"format":"f","path":"transcripts/c2.jsonl","events":1,"schema_version":1}}` {
		t.Fatalf("error payload %s", got)
	}
	if got := string(evs[2].Payload.(json.RawMessage)); got != `{"verb":"ask"}` {
		t.Fatalf("an empty transcript is dropped: %s", got)
	}
	dir := filepath.Join(filepath.Dir(p), "transcripts")
	var want strings.Builder
	for _, e := range events {
		want.Write(e)
		want.WriteByte('\n')
	}
	if b, err := os.ReadFile(filepath.Join(dir, "c1.jsonl")); err != nil || string(b) != want.String() {
		t.Fatalf("c1.jsonl = %.200q (%v)", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c1.timings")); string(b) != "0 0\n1 7\n2 0\n" {
		t.Fatalf("c1.timings = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "c3.jsonl")); !os.IsNotExist(err) {
		t.Fatalf("an empty transcript wrote a file: %v", err)
	}
}

// rawPayload is a payload holding its transcript's events as written.
type rawPayload struct {
	Verb       string         `json:"verb"`
	Transcript map[string]any `json:"transcript"`
	events     []json.RawMessage
}

func (p rawPayload) TranscriptEvents() []json.RawMessage { return p.events }

// A RawTranscript payload's events are written as they are held, spacing
// and all, as upstream's transcripts/<call_id>.jsonl keeps a cassette's
// string event (probed in hunt108: '{"a": 1}' and '  [1,  2] ' byte for
// byte); one that is not one line of JSON is written compacted.
func TestAppendKeepsTranscriptEventsAsWritten(t *testing.T) {
	w, p := mustCreate(t, Header{})
	events := []json.RawMessage{
		json.RawMessage(`{"a": 1}`),
		json.RawMessage(`  [1,  2] `),
		json.RawMessage("{\"b\":\n 2}"),
	}
	payload := rawPayload{Verb: "decide", events: events,
		Transcript: map[string]any{"format": "f", "events": events}}
	if err := w.Append(Event{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: payload}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(p), "transcripts", "c1.jsonl"))
	if want := "{\"a\": 1}\n  [1,  2] \n{\"b\":2}\n"; err != nil || string(b) != want {
		t.Fatalf("c1.jsonl = %q (%v), want %q", b, err, want)
	}
}
