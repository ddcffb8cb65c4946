package cmd

import (
	"bytes"
	"context"
	"os"
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

// TestStoryIntentsRecordingLinkedOut: a recording.yaml that a symlink leads
// out of the project is refused by a plain kitsoki test whether its target
// exists or not. Before, a dangling link was skipped silently and one to an
// existing file refused, so the output told which paths exist outside.
func TestStoryIntentsRecordingLinkedOut(t *testing.T) {
	outside := t.TempDir()
	storytest.WriteFile(t, filepath.Join(outside, "there.yaml"), "kind: recording\n")
	var outs []string
	for _, target := range []string{filepath.Join(outside, "there.yaml"), filepath.Join(outside, "missing.yaml")} {
		dir := storytest.TempTree(t, map[string]string{
			".kitsoki/.keep":    "",
			"app.yaml":          "app: { id: out, version: 0.1.0 }\nintents:\n  go: {}\nroot: hall\nstates:\n  hall:\n    on:\n      go: [{ target: hall }]\n",
			"intents/hall.yaml": "test_kind: intents\nstate: hall\nfixtures:\n  - id: go\n    intent: { name: go }\n    inputs: [\"go\"]\n",
		})
		if err := os.Symlink(target, filepath.Join(dir, "recording.yaml")); err != nil {
			t.Fatal(err)
		}
		app := filepath.Join(dir, "app.yaml")
		var text, errb bytes.Buffer
		got, err := runStoryIntents(context.Background(), &text, &errb, flowtest.NewRunner(flowtest.Options{}), []string{app}, &testFlags{})
		msg := ""
		if err != nil {
			msg = strings.ReplaceAll(strings.ReplaceAll(err.Error(), dir, "DIR"), target, "TARGET")
		}
		outs = append(outs, msg)
		if !got.ran || !strings.Contains(msg, "symlink leading out") {
			t.Errorf("%s: ran=%v err=%v", filepath.Base(target), got.ran, msg)
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("an existing target: %q\na missing one: %q", outs[0], outs[1])
	}
}
