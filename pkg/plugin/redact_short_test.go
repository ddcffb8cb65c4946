package plugin

import "testing"

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
