package jsonvalue

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// A big string decodes into one copy of itself: the data is not read
// into a decoder's buffer first (json.Decoder's doubling buffer took some
// four times the data, on top of the string).
func TestOneExactBigStringAllocates(t *testing.T) {
	text := strings.Repeat("big answer ", 8<<20/11)
	data := []byte(`{"submission": {"text": "` + text + `"}, "n": 12345678901234567891}`)
	var v any
	var err error
	spent := allocs.During(func() { err = OneExact(data, &v) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes of JSON: allocated %d", len(data), spent)
	if spent > uint64(len(data))*3/2 {
		t.Errorf("decoding %d bytes allocated %d, over 1.5 times the data", len(data), spent)
	}
	want := map[string]any{"submission": map[string]any{"text": text}, "n": json.Number("12345678901234567891")}
	if !reflect.DeepEqual(v, want) {
		t.Fatal("the value differs from the data")
	}
}

// What the fast path leaves to json.Decoder: a target that is not an
// empty interface, or one that already holds a value, and a number a
// float64 cannot hold (One's error names it).
func TestOneKeepsDecoderCases(t *testing.T) {
	var s struct {
		N json.Number `json:"n"`
	}
	if err := OneExact([]byte(`{"n": 1e400}`), &s); err != nil || s.N != "1e400" {
		t.Fatalf("struct: %+v, %v", s, err)
	}
	var held any = map[string]any{"old": 1}
	if err := OneExact([]byte(`{"new": 2}`), &held); err != nil || !reflect.DeepEqual(held, map[string]any{"new": json.Number("2")}) {
		t.Fatalf("held: %#v, %v", held, err)
	}
	var f any
	if err := One([]byte(`[1, 1e400]`), &f); err == nil || !strings.Contains(err.Error(), "cannot unmarshal number 1e400") {
		t.Fatalf("out of range: %#v, %v", f, err)
	}
}

// A big string with escapes is unquoted into one buffer, which becomes
// the string (encoding/json unquotes into one and copies it).
func TestOneExactEscapedStringAllocates(t *testing.T) {
	body := strings.Repeat(`line \"quoted\" \u00e9\tx\n`, 8<<20/27)
	data := []byte(`["` + body + `"]`)
	var v any
	var err error
	spent := allocs.During(func() { err = OneExact(data, &v) })
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(v, want) {
		t.Fatalf("the value differs from encoding/json's (%v)", err)
	}
	t.Logf("%d bytes of JSON: allocated %d", len(data), spent)
	if spent > uint64(len(data))*5/4 {
		t.Errorf("decoding %d bytes allocated %d, over 1.25 times the data", len(data), spent)
	}
}
