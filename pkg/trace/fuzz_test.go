package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
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
		h, evs, err := readBytes(data)
		if err != nil {
			if _, ok := IsCorrupt(err); !ok {
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

// FuzzDecodeLine checks the fast line decoder against encoding/json.
func FuzzDecodeLine(f *testing.F) {
	f.Add([]byte(`{"turn":1,"seq":2,"ts":"2026-11-30T09:23:56.1Z","kind":"a","payload":{"a":[1,2.5e3,-0,true,null,"\u00e9\n"]}}`))
	f.Add([]byte(`{"Turn":1}`))
	f.Add([]byte(`{"turn":1,"turn":2}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"a":"\ud800"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if validJSON(line) != json.Valid(line) {
			t.Fatalf("validJSON=%v json.Valid=%v for %q", validJSON(line), json.Valid(line), line)
		}
		var fast, slow Event
		fp, ok := fastDecode(line, &fast, &interner{})
		sp, err := slowDecode(line, &slow)
		if ok && err != nil {
			t.Fatalf("fast accepted what encoding/json rejects (%v): %q", err, line)
		}
		if ok && (!reflect.DeepEqual(fast, slow) || !bytes.Equal(compact(fp), compact(sp))) {
			t.Fatalf("decoders disagree on %q:\nfast %+v %s\nslow %+v %s", line, fast, fp, slow, sp)
		}
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

// FuzzParseTS checks the fast timestamp parser against time.Time's JSON
// decoding: whenever the fast path accepts, both agree.
func FuzzParseTS(f *testing.F) {
	for _, s := range []string{"2026-11-30T09:23:56.658392434Z", "2024-02-29T23:59:59.1Z", "2026-02-29T00:00:00Z",
		"2026-11-30T09:23:56.Z", "2026-11-30T24:00:00Z", "2026-13-01T00:00:00Z", "0000-01-01T00:00:00Z", "2026-11-30T09:23:56.0000000001Z",
		"2026-11-30T09:23:56+02:00", "2026-04-31T00:00:00Z"} {
		f.Add(`"` + s + `"`)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got, ok := parseTS([]byte(q))
		var want time.Time
		err := want.UnmarshalJSON([]byte(q))
		if ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Fatalf("%s: fast %v, time %v (%v)", q, got, want, err)
		}
	})
}
