package agent

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"testing"
)

// Every form a secret takes in output is masked: raw, JSON-escaped (with
// and without HTML escapes, ASCII-only, twice over), Go-quoted and
// URL-encoded.
func TestRedactorMasksEveryForm(t *testing.T) {
	secret := `pa"ss\wörd<&>🔑-42`
	rd := redactorOf([]string{secret})
	jsonOnce, _ := json.Marshal(secret)
	jsonTwice, _ := json.Marshal(string(jsonOnce))
	forms := map[string]string{
		"raw":           secret,
		"json":          string(jsonOnce),
		"json-twice":    string(jsonTwice),
		"json-no-html":  `"` + jsonInnerNoHTML(secret) + `"`,
		"json-ascii":    `"` + jsonInnerASCII(secret) + `"`,
		"python-ascii":  `"pa\"ss\\w\u00f6rd<&>\ud83d\udd11-42"`,
		"go-quote":      `"` + quoteInner(secret) + `"`,
		"url-query":     url.QueryEscape(secret),
		"html":          html.EscapeString(secret),
		"url-path":      url.PathEscape(secret),
		"in-error-data": `{"jsonrpc":"2.0","error":{"code":1,"message":"x","data":` + string(jsonOnce) + `}}`,
		"base64":        base64.StdEncoding.EncodeToString([]byte(secret)),
		"basic-auth":    "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+secret)),
		"base64-shift2": base64.StdEncoding.EncodeToString([]byte("ab" + secret + "z")),
		"base64url":     base64.URLEncoding.EncodeToString([]byte("a" + secret)),
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			text := "before " + form + " after"
			got := rd.String(text)
			if !strings.Contains(got, Redacted) || !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
				t.Fatalf("%s form not masked cleanly: %q -> %q", name, text, got)
			}
			for _, leak := range []string{"ss\\", "w\u00f6rd", `w\u00f6rd`, "wörd", "%C3%B6"} {
				if strings.Contains(got, leak) {
					t.Fatalf("%s: %q still in %q", name, leak, got)
				}
			}
		})
	}
}

// A value under MinSecretBytes is never masked, and masking touches only a
// secret's own occurrences, in values and map keys alike (the raw answer's
// key is masked in place, so the parsed answer's must be too).
func TestRedactorShortValuesAndKeysUntouched(t *testing.T) {
	for _, short := range []string{"1", "ok", "x", "abc"} {
		rd := redactorOf([]string{short})
		text := "build 1.21 passed ok: completion_tokens x abc"
		if got := rd.String(text); got != text {
			t.Errorf("short value %q changed %q -> %q", short, text, got)
		}
	}
	rd := redactorOf([]string{"s3cr3t-value", "1"})
	v := map[string]any{"s3cr3t-value": "key masked", "key": "stays", "n": "build 1.2 s3cr3t-value", "list": []any{"1", "s3cr3t-value"}}
	got := rd.value(v).(map[string]any)
	if got[Redacted] != "key masked" || got["key"] != "stays" || got["s3cr3t-value"] != nil {
		t.Errorf("keys: %v", got)
	}
	if got["n"] != "build 1.2 "+Redacted || got["list"].([]any)[0] != "1" || got["list"].([]any)[1] != Redacted {
		t.Errorf("values: %v", got)
	}
	raw := json.RawMessage(`{"a": 1,  "b":"s3cr3t-value"}`)
	if out := string(rd.raw(raw)); out != `{"a": 1,  "b":"[REDACTED]"}` {
		t.Errorf("raw: %s", out)
	}
	if out := rd.raw(json.RawMessage(`{"a": 1}`)); string(out) != `{"a": 1}` {
		t.Errorf("raw without secret changed: %s", out)
	}
	// Escapes no listed form has (\u for ASCII, \/, a mix): judged on the
	// decoded value, re-encoded masked; an escape without a secret keeps
	// the bytes.
	rd3 := redactorOf([]string{"tok/en-4242"})
	for _, in := range []string{`{"a":"\u0074\u006f\u006b\u002f\u0065\u006e-4242"}`, `{"a":"tok\/en-4242"}`, `{"tok\/en-4242":"x","tok/en-4242":"y"}`} {
		if out := string(rd3.raw(json.RawMessage(in))); strings.Contains(out, "tok") || !strings.Contains(out, Redacted) || !json.Valid([]byte(out)) {
			t.Errorf("escaped secret: %s -> %s", in, out)
		}
	}
	if in := `{"a": "line\none \u00e9"}`; string(rd3.raw(json.RawMessage(in))) != in {
		t.Errorf("escapes without a secret changed: %s", rd3.raw(json.RawMessage(in)))
	}
	// A raw form spanning JSON syntax: still valid JSON, and the value
	// re-encoded would spell the secret again ({"a":"b",...}), so it is
	// the masked text, quoted.
	rd2 := redactorOf([]string{`a":"b`})
	out := rd2.raw(json.RawMessage(`{"a":"b","k":"x a\":\"b y"}`))
	if !json.Valid(out) || strings.Contains(string(out), `a":"b`) || !strings.Contains(string(out), Redacted) {
		t.Errorf("syntax-spanning secret: %s", out)
	}
	// The same for a map (meta, with:): masked as encoded, read again.
	m := rd2.mapValue(map[string]any{"a": "b", "k": "x"})
	if b, _ := json.Marshal(m); strings.Contains(string(b), `a":"b`) || !strings.Contains(string(b), Redacted) {
		t.Errorf("syntax-spanning secret in a map: %s", b)
	}
	// and a secret a number holds, which no string of the map does
	pin := redactorOf([]string{"12345678"}).mapValue(map[string]any{"pin": 12345678, "cost_usd": 0.5})
	if b, _ := json.Marshal(pin); strings.Contains(string(b), "12345678") || !strings.Contains(string(b), Redacted) {
		t.Errorf("a secret in a number in a map: %s", b)
	}
}

// The answer is masked where it enters the run: submission, value, meta,
// sub-events, transcript.
func TestMaskAnswer(t *testing.T) {
	rd := redactorOf([]string{"tok-123456"})
	resp := &AskResponse{Submission: json.RawMessage(`{"x":"tok-123456"}`), Meta: map[string]any{"m": "tok-123456"},
		SubEvents:  []SubEvent{{Kind: "a.b", Payload: json.RawMessage(`"tok-123456"`)}},
		Transcript: &Transcript{Events: []json.RawMessage{json.RawMessage(`{"t":"tok-123456"}`)}}}
	m, v := rd.maskAnswer(resp, answer{v: map[string]any{"x": "tok-123456"}, json: true})
	b, _ := json.Marshal([]any{m, v})
	if strings.Contains(string(b), "tok-123456") {
		t.Fatalf("leak: %s", b)
	}
	if !strings.Contains(string(resp.Submission), "tok-123456") {
		t.Fatal("the plugin's response must not be modified in place")
	}
}

func FuzzRedactorOnlyTouchesSecrets(f *testing.F) {
	f.Add("s3cr3t\"\\é", "text s3cr3t\"\\é and more")
	f.Add("abcd", "abcabcdabcd")
	f.Fuzz(func(t *testing.T, secret, text string) {
		rd := redactorOf([]string{secret})
		got := rd.String(text)
		if len(secret) < minSecretBytes {
			if got != text {
				t.Fatalf("short secret %q changed %q", secret, text)
			}
			return
		}
		if !strings.Contains(text, secret) && !strings.Contains(text, Redacted) && got != text && !anyForm(secret, text) {
			t.Fatalf("no occurrence but changed: %q -> %q", text, got)
		}
		if strings.Contains(got, secret) && !strings.Contains(Redacted, secret) {
			// a masked occurrence may only recur through overlapping text
			if strings.Count(got, secret) > 0 && !strings.Contains(strings.ReplaceAll(got, Redacted, ""), secret) {
				return
			}
			t.Fatalf("secret %q survives in %q", secret, got)
		}
	})
}

// anyForm reports whether text holds a form of secret or, for a secret
// spanning lines, of one of its lines (masked alone, redactorOf).
func anyForm(secret, text string) bool {
	values := []string{secret}
	if strings.ContainsAny(secret, "\n\r") {
		for l := range strings.FieldsFuncSeq(secret, func(r rune) bool { return r == '\n' || r == '\r' }) {
			values = append(values, strings.TrimSpace(l))
		}
	}
	for _, v := range values {
		for _, f := range secretForms(v) {
			if len(f) >= minSecretBytes && strings.Contains(text, f) {
				return true
			}
		}
	}
	return false
}
