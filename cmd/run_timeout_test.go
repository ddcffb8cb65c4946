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
