package plugin

import (
	"encoding/json"
	"testing"
)

// The redact provider never masks an env value under 4 bytes (it would
// corrupt every prompt); longer ones are masked.
func TestRedactHookSkipsShortValues(t *testing.T) {
	env := map[string]string{"L": "1", "OK": "ok", "TOK": "tok-1234"}
	h := newRedactHook(RedactConfig{Env: []string{"L", "OK", "TOK"}}, func(k string) string { return env[k] })
	got := h.maskString("build 1.21 ok with tok-1234")
	if got != "build 1.21 ok with [redacted:TOK]" {
		t.Fatalf("got %q", got)
	}
}

// A named env value reaching with: other than inside one string is masked
// too: in a number (the number becomes the masked text), spanning the JSON
// syntax between two strings or in a map key (the encoding masked and read
// again), across a value and a key (the masked text is no JSON: all of
// with: goes under "redacted"). Before, with: was masked string by string
// and each of these went to the model whole.
func TestRedactHookMasksWithPastStrings(t *testing.T) {
	env := map[string]string{"NUM": "48213", "SPAN": `a","b`, "KEY": "key-9931", "MIX": `7,"bb`}
	h := newRedactHook(RedactConfig{Env: []string{"NUM", "SPAN", "KEY", "MIX"}}, func(k string) string { return env[k] })
	for _, tc := range []struct {
		name string
		with map[string]any
		want string
	}{
		{"number", map[string]any{"n": float64(48213), "l": []any{json.Number("1482130")}, "s": "x", "ok": 7.5, "b": true, "z": nil},
			`{"b":true,"l":["1[redacted:NUM]0"],"n":"[redacted:NUM]","ok":7.5,"s":"x","z":null}`},
		{"spanning", map[string]any{"l": []any{"a", "b"}}, `{"l":["[redacted:SPAN]"]}`},
		{"key", map[string]any{"key-9931": 1}, `{"[redacted:KEY]":1}`},
		{"value and key", map[string]any{"a": 7, "bb": 2}, `{"redacted":"{\"a\":[redacted:MIX]\":2}"}`},
		{"nothing", map[string]any{"s": "tok", "m": map[string]any(nil)}, `{"m":{},"s":"tok"}`},
	} {
		res, err := h.Hook(t.Context(), pointPreDispatch, Payload{"with": tc.with})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res.Payload["with"])
		if string(got) != tc.want {
			t.Errorf("%s: with: %s, want %s", tc.name, got, tc.want)
		}
	}
}
