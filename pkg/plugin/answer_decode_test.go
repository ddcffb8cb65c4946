package plugin

import (
	"strings"
	"testing"

	"kitsoki/internal/proc"
)

// A hook's answer line and a host provider's are one JSON value read by
// jsonvalue.OneExact: anything after it (a second value, a stray '}',
// which json.Decoder.More let through) is refused, each with its
// caller's own sentence around the reason.
func TestAnswerLinesAreExactlyOneValue(t *testing.T) {
	p := newHostProc(&Manifest{ID: "gitp", Path: "/p/manifest.yaml"}, proc.EnvInherit, nil, nil)
	for line, want := range map[string]string{
		`{"outcome":"continue"} {"outcome":"halt"}`: `unexpected '{' after the JSON value`,
		`{"outcome":"continue"}}`:                   `unexpected '}' after the JSON value`,
		`{"outcome":"continue"} x`:                  `unexpected 'x' after the JSON value`,
	} {
		if _, err := parseAnswer([]byte(line)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("hook %s: %v, want %q", line, err, want)
		}
		prov := strings.ReplaceAll(line, `"outcome":"continue"`, `"data":{}`)
		_, err := p.answer("host.git.push", []byte(prov), 1)
		if err == nil || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "host provider gitp (/p/manifest.yaml) answered host.git.push with a line that is not a JSON object") {
			t.Errorf("provider %s: %v, want %q", prov, err, want)
		}
	}
}

// Numbers: an integer keeps every digit that fits an int64 (past it, a
// float64); in a provider's data as int, in a hook's payload as int64.
func TestAnswerLineNumbers(t *testing.T) {
	a, err := parseAnswer([]byte(`{"outcome":"continue","payload":{"n":9007199254740993,"big":12345678901234567891,"f":1.0}}`))
	if err != nil || a.Payload["n"] != int64(9007199254740993) || a.Payload["big"] != 12345678901234567891.0 || a.Payload["f"] != 1.0 {
		t.Fatalf("hook payload %#v, %v", a.Payload, err)
	}
	p := newHostProc(&Manifest{ID: "gitp"}, proc.EnvInherit, nil, nil)
	r, err := p.answer("host.git.push", []byte(`{"data":{"n":9007199254740993,"big":12345678901234567891}}`), 1)
	if err != nil || r.Data["n"] != 9007199254740993 || r.Data["big"] != 12345678901234567891.0 {
		t.Fatalf("provider data %#v, %v", r.Data, err)
	}
}
