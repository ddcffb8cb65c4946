package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestIntentsLiveHarnessThroughSubprocessPlugin routes every input through
// a real subprocess agent plugin of the story that always answers "go
// north": fixtures expecting it pass, one expecting another intent and an
// expect_failure fixture fail, and the report says so.
func TestIntentsLiveHarnessThroughSubprocessPlugin(t *testing.T) {
	storytest.NeedGo(t)
	echo := echoAgent(t)
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": fmt.Sprintf(`app: { id: live-intents, version: 0.1.0 }
agent_plugins:
  agent.router: { plugin: subprocess, command: %q, args: [-alias, agent.router, -fault, 'answer:{"intent":"go","slots":{"direction":"north"}}'] }
intents:
  go: { slots: { direction: { type: enum, values: [north, south], required: true } } }
  look: {}
root: hall
states:
  hall:
    on:
      go: [{ target: hall }]
      look: [{ target: hall }]
`, echo),
		"intents/hall.yaml": `test_kind: intents
state: hall
defaults: { runs: 2 }
fixtures:
  - id: north
    intent: { name: go, slots: { direction: north } }
    inputs: ["go north", "up"]
  - id: look
    intent: { name: look }
    inputs: ["look"]
  - id: nonsense
    expect_failure: { any_of: [INTENT_NOT_ALLOWED_IN_STATE] }
    inputs: ["dance"]
`,
	})
	jsonOut := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCmd(t, "test", "intents", dir, "--harness", "live", "--agent", "agent.router", "-j", "2", "--json", jsonOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"PASS    state:hall", "north", "4/4 (100.0%)", "FAIL    state:hall", `LOW     "look"`, "Summary: 1/3 fixtures pass"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	var rep struct {
		HarnessType, AgentBackend string
		TotalRuns                 int
		Fixtures                  []struct {
			ID     string
			Inputs []struct{ FirstActualIntent string }
		}
	}
	b, _ := os.ReadFile(jsonOut)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.HarnessType != "live" || rep.AgentBackend != "agent.router" || rep.TotalRuns != 8 || rep.Fixtures[1].Inputs[0].FirstActualIntent != "go" {
		t.Errorf("report: %s", b)
	}
	if code, _, errOut := runCmd(t, "test", "intents", dir, "--harness", "live", "--agent", "agent.nope"); code != 2 || !strings.Contains(errOut, "no such agent plugin") {
		t.Errorf("unknown alias: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "test", "intents", dir, "--harness", "live"); code != 2 || !strings.Contains(errOut, "--agent ALIAS") {
		t.Errorf("no alias: exit %d %s", code, errOut)
	}
}

// TestIntentsCLIOnCloak runs the static harness on the corpus's cloak
// through the command line: the existing engine's verdicts (exit 0).
func TestIntentsCLIOnCloak(t *testing.T) {
	app := filepath.Join(storytest.Corpus(t, "cloak"), "app.yaml")
	code, out, errOut := runCmd(t, "test", "intents", app)
	want, err := os.ReadFile("../pkg/flowtest/testdata/intents/cloak/upstream.txt")
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != string(want) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	// --junit - writes the JUnit report on stdout and the text on stderr.
	t.Chdir(t.TempDir())
	code, out, errOut = runCmd(t, "test", "intents", app, "--junit", "-")
	if code != 0 || !strings.HasPrefix(out, "<?xml") || errOut != string(want) {
		t.Fatalf("--junit -: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "test", "intents", app, "--junit", "-", "--json", "-"); code != exitUsageEnv || !strings.Contains(errOut, "both want stdout") {
		t.Fatalf("two stdouts: %d %s", code, errOut)
	}
	code, out, _ = runCmd(t, "test", "intents", app, "--dry-run", "--runs", "2")
	if code != 0 || !strings.Contains(out, "Dry run: 15 fixtures, 46 inputs, 92 total calls") {
		t.Fatalf("dry run: %d %s", code, out)
	}
}
