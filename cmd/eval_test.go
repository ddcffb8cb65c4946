package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/eval"
)

const evCorpus = "../pkg/eval/testdata/pr-refinement"

func TestEvalListShowCheckCorpus(t *testing.T) {
	code, out, errOut := runCmd(t, "eval", "list", evCorpus)
	abs, _ := filepath.Abs(filepath.Join(evCorpus, "evals", "merge_judge.yaml"))
	if code != 0 || out != "merge_judge\tpassing\tenum\tsynthetic-codex/syn:small:text\t"+abs+"\n" {
		t.Errorf("list: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "eval", "list", "--json", evCorpus)
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0]["status"] != "passing" || rows[0]["comparator"] != "enum" || rows[0]["pin"] != "synthetic-codex/syn:small:text" {
		t.Errorf("list --json: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "eval", "show", filepath.Join(evCorpus, "evals", "merge_judge.yaml"))
	for _, want := range []string{"call: merge_judge\n", "handler: host.agent.decide\n", "state: merge_awaiting_reply\n", "schema: schemas/judge_verdict.json\n", "comparator: enum\n", "status: passing\n", `WARN: `} {
		if !strings.Contains(out, want) {
			t.Errorf("show dataset lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("show dataset exit %d", code)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	code, out, _ = runCmd(t, "eval", "show", "--html", html, filepath.Join(evCorpus, "evals", "reports", "merge_judge", "latest.json"))
	if code != 0 || !strings.Contains(out, "- synthetic-codex/syn:small:text effort=low pass pass_rate=1.00 cost=0.000800 p95=3100ms\n") ||
		!strings.Contains(out, "status candidates: 3\n") {
		t.Errorf("show report: %d\n%s", code, out)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "<table", "syn:small:text", "cheapest_passing"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("html lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "src=", "href=", "@import", "url("} {
		if bytes.Contains(page, []byte(banned)) {
			t.Errorf("html is not self-contained: has %q", banned)
		}
	}
	code, out, _ = runCmd(t, "eval", "show", "--json", filepath.Join(evCorpus, "evals", "reports", "merge_judge", "failing.json"))
	if code != 0 || !strings.Contains(out, `"kind": "agent_eval_report"`) {
		t.Errorf("show --json report: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "eval", "check", evCorpus)
	if code != 0 || !strings.Contains(out, "every pinned selection has fresh, passing evidence") {
		t.Errorf("check: %d %s", code, out)
	}
	code, _, errOut = runCmd(t, "eval", "list", "/nonexistent/story")
	if code != 2 || !strings.Contains(errOut, "no such file") {
		t.Errorf("list missing: %d %s", code, errOut)
	}
}

const evApp = `app: {id: evcmd, version: 0.1.0, title: "eval cmd"}
hosts: [host.agent.decide]
world:
  x: {type: string, default: ""}
  out: {type: object, default: {}}
intents:
  go: {description: "go"}
root: s
states:
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        with:
          prompt: "Say {{ args.x }}."
          schema: schemas/out.json
          args: {x: "{{ world.x }}"}
        bind: {out: submitted}
    on:
      go: [{target: done}]
  done: {terminal: true}
`

const evCassette = `kind: host_cassette
app_id: evcmd
episodes:
  - id: fast_a
    replay: any
    match: {handler: agent.fast, args: {x: a}}
    agent: {verb: decide, duration_ms: 50, cost_usd: 0.002, response: '{"word":"a"}'}
  - id: fast_other
    replay: any
    match: {handler: agent.fast}
    agent: {verb: decide, duration_ms: 60, cost_usd: 0.002, response: '{"word":"zzz"}'}
  - id: cheap
    replay: any
    match: {handler: agent.cheap}
    agent: {verb: decide, duration_ms: 900, cost_usd: 0.0001, response: '{"word":"a"}'}
`

func evStory(t *testing.T, examples string) (dir, ds, cas string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"app.yaml":         evApp,
		"schemas/out.json": `{"type":"object","required":["word"],"properties":{"word":{"type":"string"}}}`,
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\ntask: {adherence_bar: {min_pass_rate: 1}}\n" +
			"matrix: {profiles: [fast, cheap], repeat: 2}\ncomparator: exact\nselection: {strategy: cheapest_passing}\nexamples:\n" + examples,
		"cassette.yaml": evCassette,
	}
	storytest.WriteTree(t, dir, files)
	return dir, filepath.Join(dir, "evals", "pick.yaml"), filepath.Join(dir, "cassette.yaml")
}

func TestEvalRunCassetteShardMerge(t *testing.T) {
	dir, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n  - {name: two, args: {x: a}, expect: {word: a}}\n")
	code, out, errOut := runCmd(t, "eval", "run", "--cassette", cas, ds)
	if code != 0 || !strings.Contains(out, "decision: cheapest_passing -> cheap\n") || strings.Contains(errOut, "WARN") {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	latest := filepath.Join(dir, "evals", "reports", "pick", "latest.json")
	b, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	json.Unmarshal(b, &rep)
	if rep["decision"].(map[string]any)["evidence"] != "evals/reports/pick/latest.json" || rep["dataset_hash"] == nil {
		t.Errorf("report %s", b)
	}
	code, out, _ = runCmd(t, "eval", "list", dir)
	if code != 0 || !strings.HasPrefix(out, "pick\tpassing\texact\t\t") {
		t.Errorf("list after run: %q", out)
	}
	// Two shards and a merge give the same candidates as the full run.
	s1, s2 := filepath.Join(dir, "evals", "reports", "pick", "shard-1-of-2.json"), filepath.Join(dir, "evals", "reports", "pick", "shard-2-of-2.json")
	for _, s := range []string{"1/2", "2/2"} {
		if code, _, errOut := runCmd(t, "eval", "run", "--cassette", cas, "--shard", s, ds); code != 0 {
			t.Fatalf("shard %s: %d %s", s, code, errOut)
		}
	}
	merged := filepath.Join(t.TempDir(), "merged.json")
	if code, _, errOut := runCmd(t, "eval", "merge", "-o", merged, ds, s1, s2); code != 0 {
		t.Fatalf("merge: %d %s", code, errOut)
	}
	mb, _ := os.ReadFile(merged)
	var m map[string]any
	json.Unmarshal(mb, &m)
	full, _ := json.Marshal(rep["candidates"])
	got, _ := json.Marshal(m["candidates"])
	if string(full) != string(got) {
		t.Errorf("merged candidates differ:\n%s\n%s", got, full)
	}
	if code, _, errOut := runCmd(t, "eval", "merge", ds, s1); code != 1 || !strings.Contains(errOut, "missing shard") {
		t.Errorf("merge with a missing shard: %d %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "eval", "run", "--shard", "3/2", ds); code != 2 || !strings.Contains(errOut, "--shard") {
		t.Errorf("bad shard: %d %s", code, errOut)
	}
}

func TestEvalRunFailingAndInvalid(t *testing.T) {
	_, ds, cas := evStory(t, "  - {name: one, args: {x: b}, expect: {word: b}}\n")
	code, out, errOut := runCmd(t, "eval", "run", "--cassette", cas, "-o", filepath.Join(t.TempDir(), "r.json"), ds)
	if code != 1 || !strings.Contains(errOut, "no candidate passed") || !strings.Contains(out, "fail pass_rate=0.00") {
		t.Errorf("failing run: %d\n%s\n%s", code, out, errOut)
	}
	os.WriteFile(ds, []byte("kind: agent_eval\napp: ../app.yaml\ncall: nope\ncomparator: exact\nexamples: [{name: a, expect: {word: a}}]\n"), 0o644)
	code, _, errOut = runCmd(t, "eval", "run", ds)
	if code != 1 || !strings.Contains(errOut, `ERROR: `+ds+`:3:7: call site "nope" not found`) || !strings.Contains(errOut, "eval validation failed") {
		t.Errorf("invalid run: %d %s", code, errOut)
	}
	code, out, _ = runCmd(t, "eval", "show", ds)
	if code != 1 || !strings.Contains(out, "status: invalid") {
		t.Errorf("show invalid: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "eval", "list", filepath.Dir(filepath.Dir(ds)))
	if code != 0 || !strings.HasPrefix(out, "nope\tinvalid\texact") {
		t.Errorf("list invalid: %d %q", code, out)
	}
}

// TestEvalShowJSONCallHasHashes: upstream's eval show --json prints the
// call site with the dataset, prompt, schema and toolbox hashes between
// state_path and selection_ref (values from trace-eval.md C.5); ours left
// them out. Found by the trace-eval.md walk (docs/compat/trace-eval.md C.10).
func TestEvalShowJSONCallHasHashes(t *testing.T) {
	code, out, errOut := runCmd(t, "eval", "show", "--json", filepath.Join(evCorpus, "evals", "merge_judge.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var obj struct {
		Call json.RawMessage `json:"call"`
	}
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	want := `"state_path":"merge_awaiting_reply",` +
		`"dataset_hash":"sha256:c19a51bd7ca0b2af3c41a62a7f8b42cf2b193849012ab9e7da5d6747c5527063",` +
		`"prompt_hash":"sha256:2b246de68da28766e47fabbd7ab33584a9aa56457442dba2974d59d0f22e1b3d",` +
		`"schema_hash":"sha256:e80f67e1121fd7d73a00e6db263e9d059af3c1813ec8a54faaea71ec5fdd0973",` +
		`"toolbox_hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",` +
		`"selection_ref":"evals/reports/merge_judge/latest.json"}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, obj.Call); err != nil || !strings.HasSuffix(compact.String(), want) {
		t.Errorf("call:\n%s\nwant it to end with\n%s", compact.String(), want)
	}
	// every member of a call site is in eval show's copy of it
	cs := &eval.CallSite{Call: "c", Handler: "h", Agent: "a", Plugin: "p", PromptPath: "pp", SchemaPath: "s", SchemaName: "n", EffectIndex: 1, StatePath: "x", SelectionRef: "r"}
	site, _ := json.Marshal(cs)
	shown, _ := json.Marshal((&eval.Validation{CallSite: cs}).ShownCall())
	var a, b map[string]any
	_ = json.Unmarshal(site, &a)
	_ = json.Unmarshal(shown, &b)
	for k, v := range a {
		if b[k] != v {
			t.Errorf("eval show --json call: %q is %v, the call site's is %v", k, b[k], v)
		}
	}
}
