package trace

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/testing/allocs"
)

// TestSpillBoundsMemory: moving a 512 KiB answer (twice blobThreshold;
// held twice, as a harness.returned event holds submission and stdout) to
// its blob file allocates a small part of the payload: the answer is
// hashed and written from where it lies in the payload. An answer JSON
// escapes is decoded once, into the buffer encoding/json allocates for it.
// Before, spill decoded the payload, copied each string to hash it and
// marshalled the rest again: some 4 to 6 times the payload.
func TestSpillBoundsMemory(t *testing.T) {
	w, err := CreateWith(filepath.Join(t.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, tc := range []struct {
		name   string
		answer string
		most   float64 // bytes allocated per payload byte
	}{
		{"plain", spillText("big answer ", 2*blobThreshold), 0.125},
		{"escaped", spillText("a \"quoted\"\\answer\n", 2*blobThreshold), 1.25},
	} {
		payload, err := preparePayload(map[string]any{"data": map[string]any{"ok": true, "stdout": tc.answer, "submission": map[string]any{"text": tc.answer}}})
		if err != nil {
			t.Fatal(err)
		}
		var out json.RawMessage
		spent := allocs.During(func() { out, err = w.spill(payload) })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: spilling a %d-byte payload allocated %d bytes", tc.name, len(payload), spent)
		if len(out) > 1024 || bytes.Count(out, []byte(blobKey)) != 2 {
			t.Fatalf("%s: spilled payload: %.300s", tc.name, out)
		}
		if float64(spent) > tc.most*float64(len(payload)) {
			t.Errorf("%s: spilling a %d-byte payload allocated %d bytes, over %.3g times its size", tc.name, len(payload), spent, tc.most)
		}
	}
}

// spillReference is spill as it was written first, for payloads none of
// whose values moves: decode with UseNumber and marshal without HTML
// escaping.
func spillReference(payload []byte) ([]byte, error) {
	v, err := decodeNumbers(payload)
	if err != nil {
		return nil, err
	}
	return jsonvalue.MarshalNoHTML(v)
}

var spillCanonicalSeeds = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1E400`, `2.50e+3`, `true`, `null`,
	` { "b" : 1 , "a" : [ 1 , 2 ] } `,
	`{"a":1,"a":2,"b":{"a":3,"a":{"x":1}}}`,
	`{"\u0062":1,"a":2,"b":3}`,
	`{"é":1,"e\u0301":2,"z":3,"Z":4,"":5}`,
	`["<>&", "\u003c\u003e\u0026", "\/", "\ud800", "\udc00\ud800", "\ud834\udd1e", "\u2028\u2029", "` + "\u2028<\u2029" + `"]`,
	`{"$kitsoki_blob":"agent-prompts/x.txt","bytes":1}`,
	`[[[[[[{"a":[{}]}]]]]]]`,
	`"\t\n\r\b\f\u0000\u001f\u007f"`,
}

// TestSpillCanonical: a payload with nothing to move comes out of spill
// as the decode-and-marshal of the first spill wrote it.
func TestSpillCanonical(t *testing.T) {
	w, err := CreateWith(filepath.Join(t.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, s := range spillCanonicalSeeds {
		checkSpillCanonical(t, w, []byte(s))
	}
}

func checkSpillCanonical(t *testing.T, w *Writer, payload []byte) {
	t.Helper()
	want, err := spillReference(payload)
	if err != nil {
		t.Fatalf("%s: %v", payload, err)
	}
	got, err := w.spill(payload)
	if err != nil {
		t.Fatalf("%s: spill: %v", payload, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("spill(%s) = %s, want %s", payload, got, want)
	}
}

func FuzzSpillCanonical(f *testing.F) {
	for _, s := range spillCanonicalSeeds {
		f.Add(s)
	}
	w, err := CreateWith(filepath.Join(f.TempDir(), "run.jsonl"), Header{}, Options{Sync: SyncNever})
	if err != nil {
		f.Fatal(err)
	}
	defer w.Close()
	f.Fuzz(func(t *testing.T, s string) {
		payload, err := preparePayload(json.RawMessage(s))
		if err != nil || len(payload) == 0 || strings.TrimSpace(s) == "" {
			return // the writer refuses it before spill
		}
		checkSpillCanonical(t, w, payload)
	})
}

// A payload nested deeper than a reader decodes is refused by name when
// it has to be spilled, and nothing is written.
func TestSpillRefusesDeepNesting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w, err := CreateWith(path, Header{}, Options{Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var v any = strings.Repeat("x", blobThreshold+1)
	for range maxScanDepth + 1 {
		v = []any{v}
	}
	err = w.Append(Event{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"deep": v}})
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 10000") {
		t.Fatalf("err = %v, want the nesting named", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), promptsDir)); err == nil {
		t.Error("a refused event left blob files")
	}
}
