package trace

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, every
// rejection must be a *CorruptError, and an accepted trace must re-encode to
// a trace that reads back to the same events and re-encodes to itself.
func FuzzReader(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/corrupt/*.jsonl")
	seeds = append(seeds, "testdata/ok_blank_lines.jsonl")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(synthBytes(f, 2))
	f.Add([]byte(`{"kind":"session.header","schema_version":1}` + "\n" + `{"turn":0,"seq":0,"TURN":1,"payload":{"a":"\u00e9"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readBothWays(t, data)
		h, evs, err := readBytes(data)
		if err != nil {
			if _, ok := errors.AsType[*CorruptError](err); !ok {
				t.Fatalf("non-corrupt error: %v", err)
			}
			return
		}
		enc1 := encodeTrace(t, h, evs)
		h2, evs2, err := readBytes(enc1)
		if err != nil {
			t.Fatalf("re-encoded trace rejected: %v\n%s", err, enc1)
		}
		enc2 := encodeTrace(t, h2, evs2)
		if !bytes.Equal(enc1, enc2) {
			t.Fatalf("encoding not stable:\n%s\n%s", enc1, enc2)
		}
		if len(evs) != len(evs2) {
			t.Fatalf("event count %d != %d", len(evs), len(evs2))
		}
	})
}

// FuzzDecodeLine reads a trace of one event line with the fast line
// decoder on and off (FastDecodeEnv): the events, payloads and errors must
// be the same. The seeds are the lines where the two could part.
func FuzzDecodeLine(f *testing.F) {
	for _, l := range []string{
		`{"turn":1,"seq":2,"ts":"2026-11-30T09:23:56.1Z","kind":"a","payload":{"a":[1,2.5e3,-0,true,null,"\u00e9\n"]}}`,
		`{"turn":0,"seq":0,"ts":"2026-11-30T09:23:56.1Z","kind":"a","state_path":"s","parent_turn":3,"call_id":"c","episode_id":"e","match_idx":4,"payload":{"a":1}}`,
		` { "turn" : -1 , "seq":0 , "payload" : [ 1 , 2 ] } `,
		`{"kind":"caf\u00e9","state_path":"é","payload":"x"}`,
		`{"Turn":5,"seq":0}`, `{"turn":1,"turn":2}`, `{"turn":null,"seq":1}`, `{"turn":1.0}`, `{"turn":1e2}`,
		`{"turn":12345678901234567890}`, `{"ts":"2026-11-30T09:23:56+02:00"}`, `{"ts":"2026-02-29T00:00:00Z"}`,
		`{"ts":"2024-02-29T23:59:59.123456789Z"}`, `{"ts":"2026-11-30T24:00:00Z"}`, `{"ts":null}`, `{"kind":null}`,
		`{"\u006bind":"x"}`, `{"kind":"session.header"}`, `{"kind":"session.header","Kind":null}`,
		`{"payload":{"deep":[[[[{}]]]]}}`, `{}`, `[1,2]`, `{"a":"\ud800"}`, `{"turn":0,"seq":0,"payload":{"a":1}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		data := append([]byte(`{"kind":"session.header","schema_version":1}`+"\n"), line...)
		readBothWays(t, append(data, '\n'))
	})
}

func readBytes(data []byte) (Header, []Event, error) {
	rd := NewReader(bytes.NewReader(data), ReadOptions{Name: "fuzz"})
	h, err := rd.Header()
	if err != nil {
		return h, nil, err
	}
	var evs []Event
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return h, evs, nil
		}
		if err != nil {
			return h, nil, err
		}
		ev.Line = 0
		evs = append(evs, ev)
	}
}

func encodeTrace(t *testing.T, h Header, evs []Event) []byte {
	var b bytes.Buffer
	l, err := encodeHeader(h)
	if err != nil {
		t.Skip("header not encodable:", err) // e.g. a written_at year outside 0-9999
	}
	b.Write(l)
	for _, ev := range evs {
		l, err := encodeEvent(ev)
		if err != nil {
			t.Skip("event not encodable:", err)
		}
		b.Write(l)
	}
	return b.Bytes()
}
