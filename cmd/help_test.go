package cmd

import (
	"strings"
	"testing"
)

func TestHelpTopics(t *testing.T) {
	if code, _, errOut := runCmd(t, "help", "nosuch"); code != exitUsageEnv || !strings.Contains(errOut, `unknown help topic "nosuch"`) {
		t.Fatalf("help nosuch: exit %d, stderr %q", code, errOut)
	}
	code, out, _ := runCmd(t, "help", "trace", "verify")
	if code != exitOK || !strings.Contains(out, "kitsoki trace verify") {
		t.Fatalf("help trace verify: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "help"); code != exitOK || !strings.Contains(out, "Available Commands") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
}

func TestNestedTypoSuggests(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"trace shw", "Did you mean this?\n\tshow"},
		{"eval chek", "Did you mean this?\n\tcheck"},
	} {
		code, _, errOut := runCmd(t, strings.Fields(tc.args)...)
		if code != exitUsageEnv || !strings.Contains(errOut, tc.want) {
			t.Errorf("kitsoki %s: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestRootTypoNamesHelp: a mistyped command at the top level reads as one
// in a group does: the suggestion, then where the commands are listed,
// with no blank line left by cobra's trailing newline.
func TestRootTypoNamesHelp(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"validat", "kitsoki: unknown command \"validat\" for \"kitsoki\"\n\nDid you mean this?\n\tvalidate\nrun 'kitsoki --help' for its commands\n"},
		{"zzzzzz", "kitsoki: unknown command \"zzzzzz\" for \"kitsoki\"\nrun 'kitsoki --help' for its commands\n"},
	} {
		code, out, errOut := runCmd(t, tc.arg)
		if code != exitUsageEnv || out != "" || errOut != tc.want {
			t.Errorf("kitsoki %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.arg, code, out, errOut, tc.want)
		}
	}
}
