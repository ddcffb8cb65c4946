package cmd

import (
	"strings"
	"testing"
)

// A state timeout fires when the run rests; the human log says it is waiting.
func TestRunHumanLogShowsTimeout(t *testing.T) {
	code, out, errOut := runCmd(t, "run", "testdata/timeout", "--trace", t.TempDir()+"/t.jsonl")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "waiting 10ms for the timeout of waiting") {
		t.Fatalf("no timeout line in the log:\n%s", out)
	}
}

// A timeout that never fires (a templated target, as upstream) says why in
// the human log: the note holds only an error, which was printed as a blank
// line.
func TestRunHumanLogShowsTimeoutThatNeverFires(t *testing.T) {
	dir := writeStory(t, `app: {id: tt}
root: a
intents:
  go: {}
states:
  a:
    timeout: {after: 10ms, target: "{{ 'b' }}"}
    on:
      go: [{target: b}]
  b: {terminal: true}
`)
	_, out, errOut := runCmd(t, "run", dir, "--trace", t.TempDir()+"/t.jsonl")
	want := `app.yaml:7:5: state "a": timeout.target "{{ 'b' }}" is relative, templated or written with slashes: it never fires`
	if !strings.Contains(out, want) || strings.Contains(out, "\n  \n") {
		t.Fatalf("want the never-fires line and no blank note in the log:\n%s\n%s", out, errOut)
	}
}
