package compose

import (
	"context"
	"testing"

	"kitsoki/pkg/engine"
)

// An episode whose response records no data (none, null, an empty
// response:, an agent: block alone) replays none, as upstream's replay:
// harness.returned carries no data and a job's last_job_result is nil; an
// explicit empty map stays data, and a domain error keeps its text
// (conformance cassette-response-no-data).
func TestHostCassetteReplaysNoData(t *testing.T) {
	hc, err := parseHostCassette("c.yaml", []byte(`kind: host_cassette
episodes:
  - {id: empty, match: {handler: host.run, n: 1}, response: {}}
  - {id: nul, match: {handler: host.run, n: 2}, response: {data: null}}
  - {id: agent, match: {handler: host.run, n: 3}, agent: {verb: ask, response: hi}}
  - {id: err, match: {handler: host.run, n: 4}, response: {error: boom}}
  - {id: map, match: {handler: host.run, n: 5}, response: {data: {}}}
`), true)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range []struct {
		nilData bool
		err     string
	}{{true, ""}, {true, ""}, {true, ""}, {true, "boom"}, {false, ""}} {
		rep, err := hc.Replay(context.Background(), engine.ReplayCall{Handler: "host.run", Args: map[string]any{"n": n + 1}})
		if err != nil {
			t.Fatalf("call %d: %v", n+1, err)
		}
		if (rep.Data == nil) != want.nilData || rep.Error != want.err {
			t.Errorf("call %d: data %#v error %q, want nil data %v error %q", n+1, rep.Data, rep.Error, want.nilData, want.err)
		}
	}
}
