package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
)

// A matrix profile that is no agent_plugins alias of pr-refinement, run
// with a cassette that answers it: the run reaches it, so no "cannot
// reach it" warning, and the candidate is named by what answered (the
// profile alone: no persona model nothing ran, no empty effort=).
const evCassetteOnlyDataset = `kind: agent_eval
app: ../app.yaml
call: merge_judge
task:
  adherence_bar: {min_pass_rate: 1}
matrix: {profiles: [local]}
comparator: {kind: enum, field: intent}
examples:
  - name: merged
    args: {pr_id: "145", merge_sha: abc1234, pr_url: https://example.invalid/pull/145}
    expect: {verdict: pass, intent: accept, reason: merged, confidence: 0.9}
selection: {strategy: cheapest_passing}
`

const evCassetteOnlyCassette = `kind: host_cassette
app_id: pr-refinement
episodes:
  - id: local
    replay: any
    match: {handler: agent.local}
    agent: {verb: decide, duration_ms: 800, response: '{"verdict":"pass","intent":"accept","reason":"merged","confidence":0.95}'}
`

func TestEvalRunCassetteOnlyProfile(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{
		"evals/merge_judge_min.yaml": evCassetteOnlyDataset,
		"cassette.yaml":              evCassetteOnlyCassette,
	})
	ds := filepath.Join(dir, "evals", "merge_judge_min.yaml")
	code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), ds)
	if code != 0 || errOut != "" {
		t.Fatalf("eval run --cassette: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	runOut := out
	for _, want := range []string{
		"- local pass pass_rate=1.00 cost=0.000000 p95=800ms\n",
		"decision: cheapest_passing -> local\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// Without a cassette nothing answers "local": the warning stays.
	code, out, _ = runCmd(t, "eval", "show", ds)
	if code != 0 || !strings.Contains(out, `WARN: `+ds+`:6:21: matrix.profiles[0] "local" is not an agent_plugins alias of the app; eval run cannot reach it without --cassette`) ||
		!strings.Contains(out, "selected: local (cheapest_passing)\n") {
		t.Errorf("eval show: %d\n%s", code, out)
	}
	// The HTML report names it the same way: no "local / " with nothing after.
	html := filepath.Join(dir, "report.html")
	// latest.json is merge_judge.yaml's evidence: the run wrote its own.
	wrote := wroteReports(runOut)
	if len(wrote) != 1 {
		t.Fatalf("eval run names no report:\n%s", runOut)
	}
	if code, _, errOut := runCmd(t, "eval", "show", wrote[0], "--html", html); code != 0 {
		t.Fatalf("eval show --html: %d %s", code, errOut)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "<td>local</td>") || !strings.Contains(string(b), "<strong>local</strong>") || strings.Contains(string(b), "local /") || strings.Contains(string(b), "local/") {
		t.Errorf("HTML report labels local wrongly:\n%s", b)
	}
}

// A cassette with no episode for agent.local cannot reach it either: the
// run says so before every call misses.
func TestEvalRunCassetteMissesProfile(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	cas := strings.ReplaceAll(evCassetteOnlyCassette, "handler: agent.local", "handler: agent.other")
	storytest.WriteTree(t, dir, map[string]string{"evals/merge_judge_min.yaml": evCassetteOnlyDataset, "cassette.yaml": cas})
	ds := filepath.Join(dir, "evals", "merge_judge_min.yaml")
	cp := filepath.Join(dir, "cassette.yaml")
	code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", cp, ds)
	want := `WARN: ` + ds + `:6:21: matrix profile "local" is no agent_plugins alias of the app and no episode of ` + cp + ` answers handler agent.local or host.agent.decide: every call of it misses`
	if code != 1 || !strings.Contains(errOut, want) || !strings.Contains(out, "decision: cheapest_passing -> no candidate passed") {
		t.Errorf("eval run --cassette: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// evAliasApp declares agent.fast (no model: a live run asks the persona's)
// and agent.slow (its own model) for the call "pick" of persona picker.
const evAliasApp = `app: {id: evcmd, version: 0.1.0}
hosts: [host.agent.decide]
agents:
  picker: {model: persona-model, system_prompt: "You pick."}
agent_plugins:
  agent.fast: {plugin: builtin.claude_cli}
  agent.slow: {plugin: builtin.claude_cli, model: alias-model}
world:
  out: {type: object, default: {}}
root: s
states:
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        with: {agent: picker, prompt: "pick", args: {}}
        bind: {out: submitted}
    terminal: true
`

// An agent_plugins alias run with --cassette is answered by the cassette,
// not by its plugin: its candidate names no model (neither the persona's
// nor the alias's: nothing ran them) unless matrix.models names one, and
// its backend is "cassette", in the text, the report and its
// rejected_summary (testdata/eval_cassette_alias.golden).
func TestEvalRunCassetteAliasProfile(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": evAliasApp,
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\ntask: {adherence_bar: {min_pass_rate: 1}}\n" +
			"matrix: {profiles: [fast, slow, cheap], models: {cheap: [tiny]}}\ncomparator: exact\nselection: {strategy: cheapest_passing}\n" +
			"examples: [{name: one, expect: {word: a}}]\n",
		"cassette.yaml": `kind: host_cassette
app_id: evcmd
episodes:
  - {id: fast, replay: any, match: {handler: agent.fast}, agent: {verb: decide, duration_ms: 50, cost_usd: 0.002, response: '{"word":"a"}'}}
  - {id: slow, replay: any, match: {handler: agent.slow}, agent: {verb: decide, duration_ms: 70, cost_usd: 0.003, response: '{"word":"b"}'}}
  - {id: cheap, replay: any, match: {handler: agent.cheap, model: tiny}, agent: {verb: decide, duration_ms: 900, cost_usd: 0.0001, response: '{"word":"a"}'}}
`,
	})
	ds := filepath.Join(dir, "evals", "pick.yaml")
	report := filepath.Join(dir, "r.json")
	code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), "-o", report, ds)
	if code != 0 {
		t.Fatalf("eval run --cassette: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var r struct {
		Candidates []struct{ Profile, Backend, Model string } `json:"candidates"`
		Decision   struct {
			RejectedSummary string `json:"rejected_summary"`
		} `json:"decision"`
	}
	b, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(b, &r) != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	got := strings.ReplaceAll(out, dir, "DIR") + "report:\n"
	for _, c := range r.Candidates {
		got += fmt.Sprintf("- profile=%s backend=%s model=%q\n", c.Profile, c.Backend, c.Model)
	}
	got += "rejected_summary: " + r.Decision.RejectedSummary + "\n"
	golden.CheckString(t, filepath.Join("testdata", "eval_cassette_alias.golden"), got)
	// Shards of such a run merge: eval merge expects the candidates a
	// cassette run measures.
	shards := []string{"eval", "merge", ds}
	for _, s := range []string{"1/2", "2/2"} {
		if code, _, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), "--shard", s, ds); code > 1 {
			t.Fatalf("shard %s: %d %s", s, code, errOut)
		}
		shards = append(shards, filepath.Join(dir, "evals", "reports", "pick", "shard-"+strings.ReplaceAll(s, "/", "-of-")+".json"))
	}
	if code, out, errOut := runCmd(t, append(shards, "-o", filepath.Join(dir, "merged.json"))...); code != 0 || !strings.Contains(out, "decision: cheapest_passing -> cheap/tiny") {
		t.Errorf("merge: %d\n%s%s", code, out, errOut)
	}
}
