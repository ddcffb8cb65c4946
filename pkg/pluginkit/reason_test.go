package pluginkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
)

// A request line Serve refuses is answered in JSON's terms with the
// member's path, never a Go type (json: cannot unmarshal ... into Go
// value of type ...): a plugin author in any language reads it.
func TestServeIORefusalWords(t *testing.T) {
	lines := []string{
		`{"id":1,"method":"agent.ask","params":{"turn":"3"}}`,
		`{"id":2,"method":"agent.ask","params":{"turn":1.5}}`,
		`{"id":3,"method":"agent.ask","params":{"turn":1e400}}`,
		`{"id":4,"method":"agent.ask","params":{"world":{"vars":[1]}}}`,
		`{"id":5,"method":"agent.ask","params":{"world":"w"}}`,
		`{"id":6,"method":"agent.ask","params":{"with":true}}`,
		`{"id":7,"method":"agent.ask","params":{"prompt":{"a":1}}}`,
		`{"id":8,"method":"agent.ask","params":{"verb":null,"call_id":false}}`,
		`{"id":9,"method":"agent.ask","params":[1]}`,
		`{"id":10,"method":"agent.ask","params":5}`,
		`{"id":11,"method":"agent.ask","params":{"deadline":"tomorrow"}}`,
		`{"id":12,"method":"agent.ask","params":{"deadline":1700000000}}`,
		`{"id":13,"method":"agent.ask","params":{"deadline":{}}}`,
		`{"id":14,"method":"agent.ask","params":{"deadline":"` + strings.Repeat("é", 40) + `"}}`,
		`{"id":15,"method":5}`,
		`[1]`,
		`"agent.ask"`,
		`{"id":16,"method":"agent.ask"`,
		`{"id":17 "method":"agent.ask"}`,
	}
	var out bytes.Buffer
	if err := ServeIO(context.Background(), strings.NewReader(strings.Join(lines, "\n")), &out, func(context.Context, *Request) (*Response, error) {
		return Submit("ok", nil)
	}); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for i, r := range replies(t, out.String()) {
		e, _ := r["error"].(map[string]any)
		fmt.Fprintf(&got, "%s\n  %v\n", lines[i], e["message"])
		if m, _ := e["message"].(string); strings.Contains(m, "Go ") || strings.Contains(m, "pluginkit.") || strings.Contains(m, "UnmarshalJSON") {
			t.Errorf("%s: %q names Go", lines[i], m)
		}
	}
	golden.CheckString(t, "testdata/refusals.golden", got.String())
}

// paramsReason's probe of the deadline agrees with a Request's decoding.
func TestParamsReasonDeadlineOnly(t *testing.T) {
	var r Request
	params := json.RawMessage(`{"turn":"x","deadline":"2026-01-02T15:04:05Z"}`)
	err := json.Unmarshal(params, &r)
	if got, want := paramsReason(params, err), `params.turn: expected an integer, got a string`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
