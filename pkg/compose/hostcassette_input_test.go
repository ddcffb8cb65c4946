package compose

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"kitsoki/pkg/engine"
)

// A replayed agent: block's input: is the agent.call.start payload's
// input as recorded, whatever its shape, null alone left out. Each want is
// the payload the existing engine's `test flows --trace-out` wrote for the
// same episode (hunt102, /tmp/hunt102/tr): ours dropped every input that
// was no mapping, and an empty mapping.
func TestHostCassetteReplaysAgentInput(t *testing.T) {
	inputs := []struct{ yaml, want string }{
		{`""`, `{"verb":"decide","input":""}`},
		{`{}`, `{"verb":"decide","input":{}}`},
		{`[]`, `{"verb":"decide","input":[]}`},
		{`0`, `{"verb":"decide","input":0}`},
		{`false`, `{"verb":"decide","input":false}`},
		{`null`, `{"verb":"decide"}`},
		{`[1, a]`, `{"verb":"decide","input":[1,"a"]}`},
		{`2026-01-02`, `{"verb":"decide","input":"2026-01-02"}`},
		{`1.0`, `{"verb":"decide","input":1}`},
		{`{a: {b: 1e3}}`, `{"verb":"decide","input":{"a":{"b":"1e3"}}}`},
	}
	src := "kind: host_cassette\nepisodes:\n"
	for i, in := range inputs {
		src += fmt.Sprintf("  - {id: e%d, match: {handler: host.agent.decide, n: %d}, agent: {verb: decide, input: %s}}\n", i, i, in.yaml)
	}
	hc, err := parseHostCassette("c.yaml", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range inputs {
		rep, err := hc.Replay(context.Background(), engine.ReplayCall{Handler: "host.agent.decide", Args: map[string]any{"n": i}})
		if err != nil || len(rep.Events) == 0 {
			t.Fatalf("input %s: %v, %d events", in.yaml, err, len(rep.Events))
		}
		got, err := json.Marshal(rep.Events[0].Payload)
		if err != nil || string(got) != in.want {
			t.Errorf("input %s: start payload %s %v, want %s", in.yaml, got, err, in.want)
		}
	}
}
