package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunIntentTypoSuggests: --intent naming an intent the resting state
// does not handle lists what it handles and, for a near miss, the one
// meant; exit 1 as a refused input. Before, the near miss was not named.
func TestRunIntentTypoSuggests(t *testing.T) {
	dir := writeStory(t, `app: {id: s}
root: a
intents:
  flee: {}
  fight: {}
states:
  a:
    on:
      flee: [{target: done}]
      fight: [{target: done}]
  done: {terminal: true}
`)
	for _, tc := range []struct{ intent, want string }{
		{"flea", "kitsoki: intent \"flea\" is not allowed in state \"a\" (it handles: fight, flee); did you mean `flee`?\n"},
		{"zzz", "kitsoki: intent \"zzz\" is not allowed in state \"a\" (it handles: fight, flee)\n"},
	} {
		code, _, errOut := runCmd(t, "run", dir, "--intent", tc.intent, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
		if code != exitFinding || !strings.HasSuffix(errOut, tc.want) {
			t.Errorf("--intent %s: exit %d, stderr %q; want exit %d and stderr ending %q", tc.intent, code, errOut, exitFinding, tc.want)
		}
	}
}
