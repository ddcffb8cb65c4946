package cmd

import (
	"strings"
	"testing"
)

// One --color flag for every command, with the same meaning.
func TestColorFlagEverywhere(t *testing.T) {
	story := brokenStories + "/unknown-key"
	code, out, _ := runCmd(t, "validate", "--color", "always", story)
	if code != exitFinding || !strings.Contains(out, "\x1b[") {
		t.Fatalf("validate --color always: exit %d, no colour in %q", code, out)
	}
	for _, args := range [][]string{
		{"validate", "--color", "never", story},
		{"validate", "--no-color", "--color", "always", story},
		{"--color", "never", "validate", story},
	} {
		if _, out, _ := runCmd(t, args...); strings.Contains(out, "\x1b[") {
			t.Errorf("%v: colour printed: %q", args, out)
		}
	}
	t.Setenv("NO_COLOR", "1")
	if _, out, _ := runCmd(t, "validate", story); strings.Contains(out, "\x1b[") {
		t.Errorf("NO_COLOR: colour printed")
	}
	for _, args := range [][]string{{"validate", "--color", "sometimes", story}, {"trace", "show", "--color", "sometimes", "x.jsonl"}} {
		if code, _, errOut := runCmd(t, args...); code != exitUsageEnv || !strings.Contains(errOut, "use auto, always or never") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
