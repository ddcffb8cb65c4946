package main

import (
	"fmt"
	"os"
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
	dir := t.TempDir()
	const n = 30
	if err := writeAgent(dir, n, 7); err != nil {
		t.Fatal(err)
	}
	again := t.TempDir()
	if err := writeAgent(again, 2, 7); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, dir, again, "000/app.yaml", "001/flows/h.yaml", "001/flows/cassettes/c.yaml")
	var files []*flowtest.File
	seen := map[string]bool{}
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.Discover([]string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) < 2 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
		for _, name := range []string{"flows/r.yaml", "flows/cassettes/rec.yaml"} {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				seen[name] = true
			}
		}
		for _, f := range []string{"flows/h.yaml", "flows/cassettes/c.yaml"} {
			b, _ := os.ReadFile(filepath.Join(d, f))
			for _, k := range []string{"infra_error:", "error:", "by_call:", "replay: any", "agent:", "submitted: null"} {
				if strings.Contains(string(b), k) {
					seen[k] = true
				}
			}
		}
	}
	for _, k := range []string{"flows/r.yaml", "infra_error:", "error:", "by_call:", "replay: any", "agent:"} {
		if !seen[k] {
			t.Errorf("no story of %d drew %s", n, k)
		}
	}
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
