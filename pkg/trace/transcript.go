package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// transcriptsDir is the folder, beside the trace, of agent-call
// transcripts (trace-eval.md A.10).
const transcriptsDir = "transcripts"

// transcriptSchemaVersion is transcript_ref's schema_version.
const transcriptSchemaVersion = 1

// RawTranscript is a payload that holds its transcript's events as the
// backend wrote them. encoding/json compacts a json.RawMessage, so the
// payload's own encoding loses a string event's spacing; upstream's
// transcripts/<call_id>.jsonl keeps each event byte for byte
// (trace-eval.md A.10), and offloadTranscript writes these instead.
type RawTranscript interface {
	TranscriptEvents() []json.RawMessage
}

// rawEvents is p's transcript events as written, nil when p holds none.
func rawEvents(p any) []json.RawMessage {
	if rt, ok := p.(RawTranscript); ok {
		return rt.TranscriptEvents()
	}
	return nil
}

// offloadTranscript moves the "transcript" member of an agent.call.complete
// or agent.call.error payload ({format, events, timings?}, a backend's own
// log of the call) to transcripts/<call_id>.jsonl, one event per line as
// the payload holds it, and transcripts/<call_id>.timings, one
// "<index> <ms>" line per event (0 where the call recorded no timing). The
// member becomes, in place, transcript_ref {format, path, events,
// schema_version: 1}; a transcript with no events is dropped, as is one
// that is not such an object (nothing in the trace names a file). Where
// asWritten holds the same events (RawTranscript), each line is its
// bytes, unless they are not one line of JSON.
func (w *Writer) offloadTranscript(raw json.RawMessage, callID string, asWritten []json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(`"transcript"`)) {
		return raw, nil
	}
	members, err := objectMembers(raw)
	if err != nil {
		return raw, nil
	}
	for i, m := range members {
		if m.key != "transcript" {
			continue
		}
		var t struct {
			Format  string            `json:"format"`
			Events  []json.RawMessage `json:"events"`
			Timings []int64           `json:"timings"`
		}
		if json.Unmarshal(m.val, &t) != nil || len(t.Events) == 0 {
			return encodeMembers(append(members[:i:i], members[i+1:]...)), nil
		}
		if err := checkCallIDFileName(callID); err != nil {
			return nil, fmt.Errorf("transcript for %q: %w", w.path, err)
		}
		var lines, timings bytes.Buffer
		if len(asWritten) != len(t.Events) {
			asWritten = nil
		}
		for j, ev := range t.Events {
			if asWritten != nil && oneLineJSON(asWritten[j]) {
				ev = asWritten[j]
			}
			lines.Write(ev)
			lines.WriteByte('\n')
			ms := int64(0)
			if j < len(t.Timings) {
				ms = t.Timings[j]
			}
			timings.WriteString(strconv.Itoa(j) + " " + strconv.FormatInt(ms, 10) + "\n")
		}
		name := callID + ".jsonl"
		if err := w.writeSideFile(transcriptsDir, name, lines.Bytes()); err != nil {
			return nil, fmt.Errorf("transcript %s/%s: %w", transcriptsDir, name, err)
		}
		if err := w.writeSideFile(transcriptsDir, callID+".timings", timings.Bytes()); err != nil {
			return nil, fmt.Errorf("transcript %s/%s.timings: %w", transcriptsDir, callID, err)
		}
		ref, err := json.Marshal(struct {
			Format        string `json:"format"`
			Path          string `json:"path"`
			Events        int    `json:"events"`
			SchemaVersion int    `json:"schema_version"`
		}{t.Format, transcriptsDir + "/" + name, len(t.Events), transcriptSchemaVersion})
		if err != nil {
			return nil, err
		}
		members[i] = member{key: "transcript_ref", val: ref}
		return encodeMembers(members), nil
	}
	return raw, nil
}

// oneLineJSON reports b as one JSON value on one line, which a JSONL
// line can hold as it is.
func oneLineJSON(b []byte) bool {
	return json.Valid(b) && !bytes.ContainsAny(b, "\r\n")
}
