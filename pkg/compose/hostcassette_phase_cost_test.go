package compose

import (
	"strings"
	"testing"
)

// A host cassette's phase_from is matched against the call's state path
// only when the match is bounded (internal/recost): a costly one fails the
// call at once, naming the cassette and the fix.
func TestHostCassettePhaseFromCostBound(t *testing.T) {
	costly := strings.Repeat("(?:x?){100}", 12) + "z" // some 2,400 instructions, over recost's bound against 500 KB
	hc, err := parseHostCassette("c.yaml", []byte("kind: host_cassette\nphase_from: '"+costly+"'\nepisodes:\n  - id: e\n    match: {handler: host.run, phase: ''}\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = hc.match("host.run", strings.Repeat("s.", 250_000), nil)
	if err == nil || !strings.Contains(err.Error(), `cassette: "c.yaml": phase_from against a state path of 500000 bytes`) || !strings.Contains(err.Error(), "shorten the pattern") {
		t.Fatalf("a costly phase_from: %v", err)
	}
	if ep, _, err := hc.match("host.run", "s", nil); err != nil || ep.ID != "e" {
		t.Fatalf("a short path: %v %v", ep, err)
	}
}
