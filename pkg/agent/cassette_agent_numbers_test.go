package agent

import (
	"math"
	"strings"
	"testing"
)

// An agent block's number keys read as the existing engine's decoder reads
// them (conformance cassette-agent-numbers); the forms it refuses refuse
// the cassette here too (probed: each refusal below stops its run with
// exit 2, each value loads).
func TestCassetteAgentNumbers(t *testing.T) {
	load := func(agent string) (*EpisodeAgent, error) {
		c, err := ParseCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: e\n    match: {handler: host.agent.decide}\n    agent: "+agent+"\n"))
		if err != nil {
			return nil, err
		}
		return c.Episodes[0].Agent, nil
	}
	for _, c := range []struct {
		agent string
		dur   int64
		cost  float64
	}{
		{`{duration_ms: "720", cost_usd: "0.25"}`, 720, 0.25},
		{`{duration_ms: "7.9", cost_usd: "-3"}`, 7, -3},
		{`{duration_ms: 7.9, cost_usd: 1E+3}`, 7, 1000},
		{`{duration_ms: 1e3, cost_usd: "1_000"}`, 1000, 1000},
		{`{duration_ms: "+5", cost_usd: ~}`, 5, 0},
		{`{duration_ms: -3, cost_usd: "-inf"}`, -3, math.Inf(-1)},
		{`{duration_ms: 0x10, turn: "08"}`, 16, 0},
	} {
		a, err := load(c.agent)
		if err != nil || a.DurationMS != c.dur || a.CostUSD != c.cost {
			t.Errorf("%s: got %v %v, %v; want %v %v", c.agent, a.DurationMS, a.CostUSD, err, c.dur, c.cost)
		}
	}
	a, err := load(`{transcript: {timings: ["1", 2.5, "1e3", ~]}}`)
	if err != nil || len(a.Transcript.Timings) != 4 || a.Transcript.Timings[2] != 1000 {
		t.Errorf("timings: %v %v", a.Transcript, err)
	}
	for _, bad := range []string{
		`{duration_ms: "-3"}`, `{duration_ms: -1e3}`, `{duration_ms: "inf"}`, `{duration_ms: "NaN"}`,
		`{duration_ms: "0x10"}`, `{duration_ms: ""}`, `{duration_ms: " 7"}`, `{duration_ms: true}`,
		`{prompt_tokens: x}`, `{cost_usd: "1e400"}`, `{cost_usd: [1]}`,
		`{turn: x}`, `{turn: ""}`, `{turn: true}`,
		`{system_prompt: {a: 1}}`, `{call_id: [1]}`, `{transcript: {timings: ["-1"]}}`,
	} {
		_, err := load(bad)
		// placed at the value, in YAML's terms (cassetteDecodeError)
		if err == nil || !strings.HasPrefix(err.Error(), "cassette: c.yaml:5:") || !strings.Contains(err.Error(), ": expected ") {
			t.Errorf("%s: err %v, want the cassette refused at the value", bad, err)
		}
	}
}
