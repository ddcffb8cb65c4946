package jsonvalue

import (
	"encoding/json"
	"math"
	"testing"
)

// MarshalNoHTML writes <, > and & as they are and no newline after the
// value; what json.Marshal refuses it refuses too.
func TestMarshalNoHTML(t *testing.T) {
	got, err := MarshalNoHTML(map[string]any{"a<b": "x && y > z", "n": []any{1, "\n"}})
	if want := `{"a<b":"x && y > z","n":[1,"\n"]}`; err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	if _, err := MarshalNoHTML(math.NaN()); err == nil {
		t.Error("NaN encoded")
	}
	if got, _ := MarshalNoHTML("<"); string(got) == mustMarshal(t, "<") {
		t.Errorf("%s: HTML escaped", got)
	}
}

// MarshalIndentNoHTML indents as json.MarshalIndent(v, "", "  ") does,
// with <, > and & as they are and no newline after the value.
func TestMarshalIndentNoHTML(t *testing.T) {
	v := map[string]any{"a": []any{1, map[string]any{"b": "<&>"}}}
	got, err := MarshalIndentNoHTML(v)
	want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"<&>\"\n    }\n  ]\n}"
	if err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
