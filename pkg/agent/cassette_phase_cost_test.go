package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

// costlyPhaseFrom compiles to some 2,400 instructions: matched against a
// state path of 500 KB it would pass recost's bound, and a match cannot be
// interrupted. A few instructions against a long path cost as much as many
// against a short one, and compile at a hundredth of the cost.
var costlyPhaseFrom = strings.Repeat("(?:x?){100}", 12) + "z"

// A cassette's phase_from is matched against the call's state path only
// when the match is bounded (internal/recost): a costly one fails the call
// naming the cassette and the fix, at once; a short path still matches.
func TestCassettePhaseFromCostBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	src := "kind: host_cassette\napp_id: a\nphase_from: '" + costlyPhaseFrom + "'\nepisodes:\n  - id: e\n    match: {handler: agent.x, phase: ''}\n    agent: {response: '{}'}\n  - id: any\n    match: {handler: agent.x, verb: other}\n    agent: {response: '{\"a\":1}'}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cas, err := agent.LoadCassette(p)
	if err != nil {
		t.Fatal(err)
	}
	tr := cas.For("agent.x")
	_, err = tr.Ask(context.Background(), &agent.AskRequest{Verb: "ask", StatePath: strings.Repeat("s.", 250_000)})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "phase_from against a state path of 500000 bytes") ||
		!strings.Contains(err.Error(), "shorten the pattern") || !strings.Contains(err.Error(), "c.yaml") {
		t.Fatalf("a costly phase_from: %v", err)
	}
	if r, err := tr.Ask(context.Background(), &agent.AskRequest{Verb: "ask", StatePath: "s"}); err != nil || string(r.Submission) != "{}" {
		t.Fatalf("a short path: %v %+v", err, r)
	}
	// an episode that does not ask for the phase still answers the long path
	if r, err := tr.Ask(context.Background(), &agent.AskRequest{Verb: "other", StatePath: strings.Repeat("s.", 250_000)}); err != nil || string(r.Submission) != `{"a":1}` {
		t.Fatalf("an episode without phase: %v %+v", err, r)
	}
}
