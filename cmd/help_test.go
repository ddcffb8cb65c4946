package cmd

import (
	"strings"
	"testing"
)

func TestHelpTopics(t *testing.T) {
	if code, _, errOut := runCmd(t, "help", "nosuch"); code != ExitUsageEnv || !strings.Contains(errOut, `unknown help topic "nosuch"`) {
		t.Fatalf("help nosuch: exit %d, stderr %q", code, errOut)
	}
	code, out, _ := runCmd(t, "help", "trace", "verify")
	if code != ExitOK || !strings.Contains(out, "kitsoki trace verify") {
		t.Fatalf("help trace verify: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "help"); code != ExitOK || !strings.Contains(out, "Available Commands") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
}
