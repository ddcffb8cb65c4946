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
