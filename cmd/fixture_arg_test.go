package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixtureGivenAsStory: run, test and validate given a flow fixture
// where the story goes refuse it as a usage error (exit 2) naming the
// story it tests; run --json says so in its one object. Before, run and
// validate reported every fixture key as an unknown story key (exit 1), and
// test ran nothing and passed (exit 0, "0 passed, 0 failed").
func TestFixtureGivenAsStory(t *testing.T) {
	dir := writeStory(t, "app: {id: s}\nroot: a\nstates:\n  a: {}\n")
	flow := filepath.Join(dir, "flows", "one.yaml")
	writeFileT(t, flow, "test_kind: flow\ninitial_state: a\nturns: []\n")
	want := flow + ": a test fixture (test_kind: flow), not a story; give the story it tests, " + dir + " (`kitsoki test " + dir + " --flows flows/one.yaml` runs this fixture alone)"
	for _, args := range [][]string{{"run", flow}, {"test", flow}, {"validate", flow}} {
		code, out, errOut := runCmd(t, args...)
		if code != exitUsageEnv || out != "" || errOut != "kitsoki: "+want+"\n" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", args[0], code, out, errOut, exitUsageEnv, want)
		}
	}
	code, out, _ := runCmd(t, "run", flow, "--json")
	var got struct {
		Outcome, Error string
		Status         int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitUsageEnv || got.Outcome != "usage" || got.Status != exitUsageEnv || got.Error != want {
		t.Errorf("run --json: exit %d, %q (%v); want outcome usage, status 2, error %q", code, out, err, want)
	}
	// the story itself still runs and tests
	if code, _, errOut := runCmd(t, "test", dir); code != 0 || strings.Contains(errOut, "not a story") {
		t.Errorf("test %s: exit %d, %q", dir, code, errOut)
	}
}
