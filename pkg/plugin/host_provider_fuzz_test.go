package plugin

import (
	"strings"
	"testing"

	"kitsoki/internal/proc"
)

// FuzzHostProviderAnswer: whatever line a provider prints, the answer is a
// result or an error naming the provider, never a panic.
func FuzzHostProviderAnswer(f *testing.F) {
	for _, s := range []string{
		`{"data":{"a":1,"b":[1.5,{"c":null}]}}`,
		`{"data":{},"error":"boom"}`,
		`{"infra_error":"x"}`,
		`{"data":null,"delay_ms":-5}`,
		`{"delay_ms":9223372036854775807}`,
		`{"clarification":{"question":""}}`,
		`{"clarification":{"question":"q","data":{"answer":"string"}},"delay_ms":10}`,
		`{"id":1,"data":{}}`, `{"id":2,"data":{}}`, `{"id":"1"}`, `{"id":1.0}`, `{"id":null}`,
		`[1,2]`, `"str"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	p := newHostProc(&Manifest{ID: "fz", Path: "m.yaml"}, proc.EnvInherit, nil, nil)
	f.Fuzz(func(t *testing.T, line []byte) {
		res, err := p.answer("host.x.y", line, 1) // the first request: no id can be an earlier one
		if err != nil {
			if !strings.Contains(err.Error(), "host provider fz (m.yaml)") {
				t.Fatalf("error does not name the provider: %v", err)
			}
			return
		}
		if res.Delay < 0 {
			t.Fatalf("negative delay accepted")
		}
	})
}
