package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// evalPickStates is the rest of an app.yaml whose agent_plugins declare
// agent.plug: one state making the decide call "pick" the eval tests'
// datasets name, through agent.plug.
const evalPickStates = `hosts: [host.agent.decide]
world:
  out: {type: object, default: {}}
root: s
states:
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        agent: agent.plug
        with: {prompt: "pick", args: {}}
        bind: {out: submitted}
    terminal: true
`

// TestEvalRunHonoursTheOperatorProfile: eval run measures the dispatch a
// run makes. A profile that disables the candidate's alias refuses the
// eval; a budget hook halts the calls past its limit (real subprocess
// plugin, real hook chain).
func TestEvalRunHonoursTheOperatorProfile(t *testing.T) {
	storytest.NeedGo(t)
	plug := buildTestBinary(t, "kitsoki/internal/testing/evalplugins/evalplugin")
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": fmt.Sprintf(`app: {id: evprof, version: 0.1.0}
agent_plugins:
  agent.plug: {plugin: subprocess, command: %q}
`, plug) + evalPickStates,
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: [plug], models: {plug: [good]}}\ncomparator: exact\n" +
			"examples: [{name: a, args: {merge_sha: x}, expect: {intent: accept}}, {name: b, args: {merge_sha: y}, expect: {intent: accept}}, {name: c, args: {merge_sha: z}, expect: {intent: accept}}]\n",
		"off.yaml":    "disable: [agent.plug]\n",
		"budget.yaml": "config:\n  budget: {max_cost_usd: 0.0015}\n",
	})
	ds := filepath.Join(dir, "evals", "pick.yaml")
	var out, errb bytes.Buffer
	code := Run([]string{"eval", "run", ds, "--profile", filepath.Join(dir, "off.yaml"), "-o", filepath.Join(dir, "r0.json"), "--no-progress", "-j", "1"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "agent.plug is disabled in the plugin assembly") {
		t.Fatalf("disabled alias: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	report := filepath.Join(dir, "r1.json")
	Run([]string{"eval", "run", ds, "--profile", filepath.Join(dir, "budget.yaml"), "-o", report, "--no-progress", "-j", "1"}, &out, &errb)
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("no report: %v\n%s%s", err, out.String(), errb.String())
	}
	if !strings.Contains(string(b), "hook_vetoed") && !strings.Contains(string(b), "budget") {
		t.Fatalf("the budget hook did not act on the eval's calls:\n%s", b)
	}
}

// TestEvalRunMissingProfileFirst: a --profile that cannot be read or
// parsed is refused (exit 2) before the dataset's findings, which are
// not printed. Before, every dataset finding came first and the
// profile's error last, or not at all when a finding stopped the run.
func TestEvalRunMissingProfileFirst(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{"bad.yaml": "disable: [\n"})
	ds := filepath.Join(dir, "evals", "merge_judge.yaml") // its profiles are no aliases: ERROR findings
	for _, tc := range []struct{ profile, want string }{
		{filepath.Join(dir, "missing.yaml"), "kitsoki: --profile " + filepath.Join(dir, "missing.yaml") + ": the plugin profile cannot be read"},
		{filepath.Join(dir, "bad.yaml"), filepath.Join(dir, "bad.yaml") + ":1: error: the plugin profile is not valid YAML"},
	} {
		code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--profile", tc.profile, ds)
		if code != exitUsageEnv || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Contains(errOut, "ERROR: ") {
			t.Errorf("--profile %s: exit %d, stdout %q, stderr:\n%s\nwant exit %d, stderr starting %q and no dataset finding", tc.profile, code, out, errOut, exitUsageEnv, tc.want)
		}
	}
}
