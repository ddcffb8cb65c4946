package flowtest

import (
	"strings"
	"testing"
)

// A recording's slot values read numbers as a story does: no decimal
// point, no number (internal/yamlnode.PointlessFloat); an empty file still
// says what it lacks.
func TestRecordingSlotsPointlessFloatsAreText(t *testing.T) {
	r, err := parseRecording("r.yaml", []byte("kind: recording\nentries:\n  - state: a\n    input: hi\n    intent: {name: go, slots: {n: 1e3, m: 1.5e3, z: 08}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Entries[0].Slots
	if s["n"] != "1e3" || s["m"] != 1500.0 || s["z"] != "08" {
		t.Errorf("slots = %#v", s)
	}
	if _, err := parseRecording("r.yaml", nil); err == nil || !strings.Contains(err.Error(), `unexpected kind ""`) {
		t.Errorf("empty recording: %v", err)
	}
}
