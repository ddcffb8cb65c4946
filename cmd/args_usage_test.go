package cmd

import (
	"strings"
	"testing"
)

// TestArgsErrorNamesUsage: a command given too few or too many arguments
// keeps cobra's words (as upstream prints them) and names the command,
// what it takes and where its help is. Before, eval run with no argument
// said only "accepts 1 arg(s), received 0".
func TestArgsErrorNamesUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "run"}, "kitsoki: eval run: accepts 1 arg(s), received 0\nusage: kitsoki eval run <eval.yaml> [flags]\nrun 'kitsoki eval run --help' for usage\n"},
		{[]string{"eval", "show", "a", "b"}, "kitsoki: eval show: accepts 1 arg(s), received 2\nusage: kitsoki eval show <eval.yaml|report.json> [flags]\n"},
		{[]string{"graph"}, "kitsoki: graph: accepts 1 arg(s), received 0\nusage: kitsoki graph "},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != exitUsageEnv || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and stderr starting %q", tc.args, code, out, errOut, exitUsageEnv, tc.want)
		}
	}
}

// TestTraceMissingPathPointsAtLs: a trace command given no PATH names
// where the ids come from (trace ls) and the completion, after the usage
// line. Before, trace show with no argument said only what it accepts.
func TestTraceMissingPathPointsAtLs(t *testing.T) {
	for _, sub := range []string{"show", "calls", "stats", "verify"} {
		code, out, errOut := runCmd(t, "trace", sub)
		want := "\nPATH is a trace file or the id of one: 'kitsoki trace ls' lists them, newest first (then e.g. 'kitsoki trace " + sub + " ID'); with 'kitsoki completion' set up, TAB completes the ids\nrun 'kitsoki trace " + sub + " --help' for usage\n"
		if code != exitUsageEnv || out != "" || !strings.HasPrefix(errOut, "kitsoki: trace "+sub+": ") || !strings.HasSuffix(errOut, want) {
			t.Errorf("trace %s: exit %d, stdout %q, stderr %q; want exit %d and stderr ending %q", sub, code, out, errOut, exitUsageEnv, want)
		}
	}
	// an argument too many is not a missing trace: no hint
	if _, _, errOut := runCmd(t, "trace", "show", "a", "b"); strings.Contains(errOut, "trace ls") {
		t.Errorf("trace show a b: %q names trace ls", errOut)
	}
}
