package cmd

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/flowtest"
)

// A plain kitsoki test runs a story's intents on the story its flow run
// loaded and compiled, not on a second load: here the story file is broken
// after the flow runner loaded it, and the intents still run (a second
// load would refuse the story, exit 2).
func TestStoryIntentsReuseTheFlowRunsStory(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": `app: { id: reuse, version: 0.1.0 }
intents:
  go: {}
root: hall
states:
  hall:
    on:
      go: [{ target: hall }]
`,
		"recording.yaml": `kind: recording
app_id: reuse
entries:
  - { state: hall, input: "go", intent: { name: go }, confidence: 1.0, majority_of: 1 }
`,
		"intents/hall.yaml": `test_kind: intents
state: hall
fixtures:
  - id: go
    intent: { name: go }
    inputs: ["go"]
`,
	})
	app := filepath.Join(dir, "app.yaml")
	runner := flowtest.NewRunner(flowtest.Options{})
	if _, err := runner.Story(app); err != nil {
		t.Fatal(err)
	}
	storytest.WriteFile(t, app, "states: [not a story\n")
	var text, errb bytes.Buffer
	got, err := runStoryIntents(context.Background(), &text, &errb, runner, []string{app}, &testFlags{})
	if err != nil || !got.ran || got.failed || !strings.Contains(text.String(), "Summary: 1/1 fixtures pass") {
		t.Fatalf("ran=%v failed=%v err=%v\n%s\n%s", got.ran, got.failed, err, text.String(), errb.String())
	}
	// Without the flow run's runner the broken file is read again.
	text.Reset()
	if _, err := runStoryIntents(context.Background(), &text, &errb, flowtest.NewRunner(flowtest.Options{}), []string{app}, &testFlags{}); err == nil {
		t.Fatalf("a fresh runner ran the broken story:\n%s", text.String())
	}
}
