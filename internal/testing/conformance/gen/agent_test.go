package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The agent stories gen writes load here and their fixtures (stubs,
// cassettes, recordings) run with no Go runtime text in any failure, view
// or event; every way of feeding an answer is drawn; the same seed writes
// the same bytes.
func TestAgentStoriesRun(t *testing.T) {
	const n = 30
	dir := writeSeeded(t, writeAgent, n, 7, "000/app.yaml", "001/flows/h.yaml", "001/flows/cassettes/c.yaml")
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.Discover([]string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) < 2 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	// a recording fixture (flows/r.yaml) says it is one
	assertDrawn(t, dir, []string{"recording:", "infra_error:", "error:", "by_call:", "replay: any", "agent:"})
	runClean(t, files, n)
}

// callsDiff reports the first dispatched call whose args differ, and
// ignores a turn where either engine dispatched nothing.
func TestCallsDiff(t *testing.T) {
	turn := func(prompt string) *flowtest.TurnResult {
		if prompt == "" {
			return &flowtest.TurnResult{}
		}
		return &flowtest.TurnResult{Events: []flowtest.ReportEvent{{Kind: "harness.dispatched",
			Payload: []byte(`{"namespace":"host.agent.ask","args":{"prompt":"` + prompt + `"}}`)}}}
	}
	if d := callsDiff(turn("a"), turn("a")); d != "" {
		t.Errorf("same calls differ: %s", d)
	}
	if d := callsDiff(turn("a"), turn("")); d != "" {
		t.Errorf("a turn with no dispatch compared: %s", d)
	}
	if d := callsDiff(turn("a"), turn("b")); !strings.Contains(d, `"prompt":"b"`) || !strings.Contains(d, `existing {"args":{"prompt":"a"}`) {
		t.Errorf("differing prompts: %q", d)
	}
}
