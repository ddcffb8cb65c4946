package sidecar

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzHealthReason: any /health body llama-server (or whatever answers on
// its port) sends: the reason shown is nothing, or one quoted line (no
// raw newline or escape sequence reaches the terminal) of at most 200
// bytes.
func FuzzHealthReason(f *testing.F) {
	for _, s := range []string{`{"status":"ok"}`, `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, `{"status":"loading model"}`,
		`{"error":{"message":""},"status":"x"}`, `{"status":"a\nb\u001b[31m"}`, `{"error":"flat"}`, `not json`, `{"status":1}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := healthReason(body)
		if r == "" {
			return
		}
		q, ok := strings.CutPrefix(r, " ")
		s, err := strconv.Unquote(q)
		if !ok || err != nil || strconv.Quote(s) != q {
			t.Fatalf("%q: reason %q is not one quoted string", body, r)
		}
		if len(s) > 200 || s == "" || strings.ContainsAny(q, "\n\r\x1b") {
			t.Fatalf("%q: reason %q", body, r)
		}
	})
}
