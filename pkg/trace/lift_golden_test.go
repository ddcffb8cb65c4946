package trace

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/golden"
)

// liftGolden is what the writer wrote for liftEvents before big strings
// were lifted out of a value ahead of marshalling it (lift.go): every
// payload marshalled whole, then spilled. -update rewrites it.
const liftGolden = "testdata/spill/lift_golden.txt"

type liftEmbedded struct {
	Inner any `json:"inner"`
}

type liftNamed string

type liftResponse struct {
	Submission any            `json:"submission,omitempty"`
	Meta       map[string]any `json:"meta,omitempty"`
}

type liftTranscript struct {
	Format string `json:"format"`
	Events []any  `json:"events"`
}

// liftPayload has the shapes a payload struct can hold a big string in:
// behind an interface field (lifted), a string field, a named string, a
// []byte, raw JSON, a field JSON leaves out, an unexported field, an
// embedded struct, an array, a map of strings and a time.
type liftPayload struct {
	Verb       string          `json:"verb"`
	Response   *liftResponse   `json:"response,omitempty"`
	Text       string          `json:"text"`
	Named      liftNamed       `json:"named"`
	Bytes      []byte          `json:"bytes"`
	Raw        json.RawMessage `json:"raw"`
	Hidden     any             `json:"-"`
	hidden     any
	Pair       [2]any            `json:"pair"`
	Strings    map[string]string `json:"strings"`
	When       time.Time         `json:"when"`
	Transcript *liftTranscript   `json:"transcript,omitempty"`
	Untagged   any
	liftEmbedded
}

// liftEvents covers where a big string can sit in a payload value and
// what the writer must still do with it: kept in a transcript, refused
// with the event (NaN, a cycle, text not in NFC, a line that cannot fit:
// no blob is written for the first three), and where it is not valid
// UTF-8 or holds characters JSON escapes.
func liftEvents() []Event {
	big := spillText("lift answer ", blobThreshold+11)
	other := spillText("other text ", blobThreshold*2+3)
	esc := spillText("<a & b>\u2028\"q\"\\ \u00e9 ", blobThreshold+40)
	bad := spillText("bad utf8 ", blobThreshold+20) + "\xff\xfe tail"
	nfd := spillText("e\u0301 ", blobThreshold+32) // whole runes
	// The cycle is beside the big string, not around it: encoding/json
	// notices a cycle only 1,000 levels down, and a big string inside it
	// was encoded at every level (256 MB, most of this test's time).
	// TestLiftStopsAtACycle holds a big string inside a cycle.
	loop := map[string]any{}
	loop["self"] = loop
	cyc := map[string]any{"big": spillText("cycle ", blobThreshold+5), "loop": loop}
	p := &liftPayload{
		Verb: "ask", Response: &liftResponse{Submission: map[string]any{"text": big, "n": json.Number("1.50"), "list": []any{other, "s", 2}}, Meta: map[string]any{"note": esc}},
		Text: spillText("string field ", blobThreshold+7), Named: liftNamed(spillText("named ", blobThreshold+9)),
		Bytes: []byte(spillText("bytes ", blobThreshold+1)), Raw: json.RawMessage(`{"r":"` + spillText("raw ", blobThreshold+3) + `"}`),
		Hidden: spillText("hidden ", blobThreshold+1), hidden: "x",
		Pair: [2]any{big, 1}, Strings: map[string]string{"s": spillText("map of strings ", blobThreshold+13)},
		When:       time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC),
		Transcript: &liftTranscript{Format: "f", Events: []any{map[string]any{"big": other}}},
		Untagged:   other, liftEmbedded: liftEmbedded{Inner: esc},
	}
	var wide []any
	for i := range 8 {
		wide = append(wide, spillText(fmt.Sprintf("wide %d ", i), 200<<10))
	}
	return []Event{
		{Turn: 1, Kind: "agent.call.start", CallID: "c1", Payload: map[string]any{"verb": "ask", "prompt": big, "transcript": other}},
		{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: p},
		{Turn: 1, Kind: "agent.call.error", CallID: "c2", Payload: map[string]any{"error": esc, "transcript": map[string]any{"format": "x", "events": []any{map[string]any{"t": big}}}}},
		{Turn: 1, Kind: "world.update", Payload: p},
		{Turn: 1, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"bad": bad, "esc": esc, "ok": "<small>"}}},
		{Turn: 1, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"a": big, "nfd": nfd}}},
		{Turn: 2, Kind: "world.update", Payload: map[string]any{"set": map[string]any{"a": spillText("not written ", blobThreshold+1), "n": math.NaN()}}},
		{Turn: 2, Kind: "world.update", Payload: cyc},
		{Turn: 2, Kind: "harness.returned", Payload: map[string]any{"wide": liftEmbedded{Inner: wide}, "big": spillText("before the refusal ", blobThreshold+1)}},
		{Turn: 2, Kind: "harness.returned", Payload: map[string]any{"w0": wide[0], "w1": wide[1], "w2": wide[2], "w3": wide[3], "w4": wide[4], "w5": wide[5], "big": spillText("refused ", blobThreshold+2)}},
		{Turn: 3, Kind: "machine.say", Payload: []any{big, []string{other}, map[string]any{"k": []any{esc}}}},
	}
}

func TestLiftGolden(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.jsonl")
	base := time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)
	w, err := CreateWith(p, Header{WrittenAt: base, AppID: "lift", Generator: "kitsoki test"}, Options{MaxLineBytes: 1 << 20, Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	var refusals strings.Builder
	for i, ev := range liftEvents() {
		ev.TS = base.Add(time.Duration(i) * time.Second)
		if err := w.Append(ev); err != nil {
			msg := strings.ReplaceAll(err.Error(), p, "RUN")
			if len(msg) > 400 { // the NFC refusal quotes the whole string
				msg = fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(msg[:300], ""), len(msg))
			}
			fmt.Fprintf(&refusals, "event %d refused: %s\n", i, msg)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	golden.CheckString(t, liftGolden, spillManifest(t, dir, refusals.String()))
}
