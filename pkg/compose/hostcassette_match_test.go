package compose

import (
	"slices"
	"testing"
)

// The host cassette's own matching rules, kept apart from the agent
// transport's: handler compares by value (no host.agent.<verb> alias),
// schema_name is the base name of a string args.schema (an empty one reads
// as "." and a missing or non-string one as "", so null never matches;
// conformance cassette-schema-name-absent), replay: any episodes replay with
// counting match_idx, and Remaining lists every unplayed episode, replay:
// any included, naming an id-less one by its place.
func TestHostCassetteMatchRules(t *testing.T) {
	hc, err := parseHostCassette("c.yaml", []byte(`kind: host_cassette
phase_from: '^p\.(\w+)'
episodes:
  - id: by_schema
    match: {handler: host.agent.decide, schema_name: v.json, phase: review}
  - id: dot
    match: {handler: host.agent.decide, schema_name: "."}
  - id: nul
    match: {handler: host.agent.decide, schema_name: ~}
  - id: no_schema
    match: {handler: host.agent.decide, schema_name: ""}
  - id: many
    match: {handler: host.run, n: 1}
    replay: any
  - match: {handler: host.never}
  - id: spare
    match: {handler: host.any}
    replay: any
`), false)
	if err != nil {
		t.Fatal(err)
	}
	play := func(handler, state string, args map[string]any) (string, int) {
		t.Helper()
		ep, idx, err := hc.match(handler, state, args)
		if err != nil {
			return "miss: " + err.Error(), idx
		}
		return ep.ID, idx
	}
	type call struct {
		handler, state string
		args           map[string]any
		id             string
		idx            int
	}
	calls := []call{
		// a host.agent.<verb> handler is matched by its full name only
		{"agent.x", "p.review", map[string]any{"verb": "decide", "schema": "a/b/v.json"}, `miss: cassette miss: no episode matched handler="agent.x" args=map[schema:a/b/v.json verb:decide]; available episodes: [by_schema dot nul no_schema many  spare]`, 0},
		{"host.agent.decide", "p.other", map[string]any{"schema": "a/b/v.json"}, `miss: cassette miss: no episode matched handler="host.agent.decide" args=map[schema:a/b/v.json]; available episodes: [by_schema dot nul no_schema many  spare]`, 0},
		{"host.agent.decide", "p.review.x", map[string]any{"schema": "a/b/v.json"}, "by_schema", 0},
		{"host.agent.decide", "q", map[string]any{"schema": ""}, "dot", 0},
		{"host.agent.decide", "q", map[string]any{"schema": 3}, "no_schema", 0},
		{"host.run", "q", map[string]any{"n": 1.0}, "many", 0},
		{"host.run", "q", map[string]any{"n": 1}, "many", 1},
		{"host.run", "q", map[string]any{"n": "1"}, `miss: cassette miss: no episode matched handler="host.run" args=map[n:1]; available episodes: [by_schema dot nul no_schema many  spare]`, 0},
	}
	for _, c := range calls {
		if id, idx := play(c.handler, c.state, c.args); id != c.id || idx != c.idx {
			t.Errorf("%s %v: got %s #%d, want %s #%d", c.handler, c.args, id, idx, c.id, c.idx)
		}
	}
	if left := hc.Remaining(); !slices.Equal(left, []string{"nul", "", "spare"}) {
		t.Errorf("Remaining = %q, want [nul \"\" spare] (an unnamed episode prints empty, as upstream)", left)
	}
}
