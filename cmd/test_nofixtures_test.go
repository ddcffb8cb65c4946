package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNoFixturesNamesWhere: kitsoki test on a story with no fixture names
// the glob it looked at under that story and how to record one; with
// --run, that the filter left none. Before, it printed the placeholder
// "<story>/flows/*.yaml" in every case.
func TestNoFixturesNamesWhere(t *testing.T) {
	dir := writeStory(t, "app: {id: s}\nroot: a\nstates:\n  a: {}\n")
	code, _, errOut := runCmd(t, "test", dir)
	want := "kitsoki test: no flow fixtures found (looked for " + filepath.Join(dir, "flows", "*.yaml") + "); record one with `kitsoki run " + dir + " --save-fixture " + filepath.Join(dir, "flows", "first.yaml") + "`\n"
	if code != 0 || !strings.HasSuffix(errOut, want) {
		t.Errorf("test %s: exit %d, stderr %q; want exit 0 and stderr ending %q", dir, code, errOut, want)
	}
	writeFileT(t, filepath.Join(dir, "flows", "one.yaml"), "test_kind: flow\ninitial_state: a\nturns: []\n")
	code, _, errOut = runCmd(t, "test", dir, "--run", "nothing-like-it")
	want = "kitsoki test: no flow fixture to run (looked for " + filepath.Join(dir, "flows", "*.yaml") + ", then kept those --run or --shard select)\n"
	if code != 0 || !strings.HasSuffix(errOut, want) {
		t.Errorf("test --run: exit %d, stderr %q; want stderr ending %q", code, errOut, want)
	}
}
