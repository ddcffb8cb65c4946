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
	var blocks []string
	for _, in := range inputs {
		blocks = append(blocks, "input: "+in.yaml)
	}
	for i, evs := range replayAgentBlocks(t, blocks) {
		if evs[0] != inputs[i].want {
			t.Errorf("input %s: start payload %s, want %s", inputs[i].yaml, evs[0], inputs[i].want)
		}
	}
}

// replayAgentBlocks replays one host.agent.decide episode per block (the
// keys of its agent: block beside verb: decide) and gives the JSON payload
// of each agent.call.* event each play writes.
func replayAgentBlocks(t *testing.T, blocks []string) [][]string {
	t.Helper()
	src := "kind: host_cassette\nepisodes:\n"
	for i, b := range blocks {
		src += fmt.Sprintf("  - {id: e%d, match: {handler: host.agent.decide, n: %d}, agent: {verb: decide, %s}}\n", i, i, b)
	}
	hc, err := parseHostCassette("c.yaml", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for i, b := range blocks {
		rep, err := hc.Replay(context.Background(), engine.ReplayCall{Handler: "host.agent.decide", Args: map[string]any{"n": i}})
		if err != nil || len(rep.Events) == 0 {
			t.Fatalf("%s: %v, %d events", b, err, len(rep.Events))
		}
		var evs []string
		for _, ev := range rep.Events {
			p, err := json.Marshal(ev.Payload)
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			evs = append(evs, string(p))
		}
		out = append(out, evs)
	}
	return out
}
