package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
)

// testPrograms are internal/testing/evalplugins/evalplugin and the
// internal/testing/evalplugins/fakeclaude stand-in, built once per test
// binary.
var testPrograms = storytest.Programs{Pkgs: []string{"kitsoki/internal/testing/evalplugins/evalplugin", "kitsoki/internal/testing/evalplugins/fakeclaude"}}

// testSecret is the resolved ${EVAL_TEST_SECRET} of agent.plug's env: it
// must never reach a report.
const testSecret = "sekrit-9f8e7d6c"

func TestMain(m *testing.M) {
	os.Setenv("EVAL_TEST_SECRET", testSecret)
	removeConfig := storytest.EmptyConfigDir()
	code := m.Run()
	testPrograms.Remove()
	removeConfig()
	os.Exit(code)
}

// buildPlugin returns the path of the built evalplugin.
func buildPlugin(t testing.TB) string { return testPrograms.Path(t, "evalplugin") }

// fakeClaude is the path of the claude CLI stand-in.
func fakeClaude(t testing.TB) string { return testPrograms.Path(t, "fakeclaude") }

// mcpAgent serves a real MCP server (the Go SDK) on loopback whose "ask"
// tool answers the merge classification correctly with meta.cost_usd 0.002.
func mcpAgent(t testing.TB) string {
	t.Helper()
	type askArgs struct {
		With map[string]any `json:"with"`
	}
	return storytest.MCPAsk(t, "eval-test-agent", func(_ *mcp.CallToolRequest, ask askArgs) (*mcp.CallToolResult, error) {
		args, _ := ask.With["args"].(map[string]any)
		intent := "refine"
		if s, _ := args["merge_sha"].(string); s != "" {
			intent = "accept"
		}
		b, _ := json.Marshal(map[string]any{
			"submission": map[string]any{"intent": intent, "confidence": 0.8},
			"meta":       map[string]any{"cost_usd": 0.002, "model": ask.With["model"]},
		})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
}

const fixtureApp = `app: {id: evalrun, version: 0.1.0, title: "eval run fixture"}
agent_plugins:
  agent.plug:
    plugin: subprocess
    command: "@PLUGIN@"
    env: {EVAL_TOKEN: "${EVAL_TEST_SECRET}"@ENV@}
  agent.judge:
    plugin: subprocess
    command: "@PLUGIN@"
@MCP@
hosts: [host.agent.decide]
agents:
  judge: {system_prompt: "You judge merges.", model: base-model, tools: [Read, Grep]}
world:
  pr_id: {type: string, default: ""}
  merge_sha: {type: string, default: ""}
  verdict: {type: object, default: {}}
intents:
  accept: {description: "accept the merge"}
  refine: {description: "ask for another pass"}
root: merge
states:
  merge:
    on_enter:
      - invoke: host.agent.decide
        id: merge_judge
        agent: agent.plug
        with:
          agent: judge
          prompt: prompts/judge.md
          schema: schemas/verdict.json
          args:
            pr_id: "{{ world.pr_id }}"
            merge_sha: "{{ world.merge_sha }}"
        bind:
          verdict: submitted
@SELECTION@
    on:
      accept: [{target: done}]
      refine: [{target: done}]
  done:
    terminal: true
`

const fixtureSchema = `{
  "type": "object",
  "required": ["intent", "confidence"],
  "properties": {
    "intent": {"type": "string", "enum": ["accept", "refine"]},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    "reason": {"type": "string"}
  }
}
`

const fixturePrompt = `PR {{ args.pr_id }} merged at "{{ args.merge_sha }}". Classify: accept or refine.
`

// fixtureDataset is the dataset the runner tests use; @PROFILES@ etc. are
// replaced per test. Its p95 bar is a generous 30s: a candidate that passes
// must answer within it on a loaded machine (the end-to-end test moves the
// run's clock past it while the evalplugin holds a slow call).
const fixtureDataset = `kind: agent_eval
app: ../app.yaml
call: merge_judge
agent: judge
task:
  goal: "Classify a landed merge."
  boundedness: {max_turns: 1, tool_policy: none, prepared_context: true}
  adherence_bar: {min_pass_rate: 0.9, max_p95_latency_ms: 30000, max_avg_cost_usd: 0.0015}
matrix:
  profiles: [@PROFILES@]
  models:
@MODELS@
  effort: [low]
  repeat: @REPEAT@
comparator: @COMPARATOR@
examples:
  - name: e1
    args: {pr_id: "1", merge_sha: abc}
    expect: {intent: accept, confidence: 0.9}
  - name: e2
    args: {pr_id: "2", merge_sha: ""}
    expect: {intent: refine, confidence: 0.9}
  - name: e3
    args: {pr_id: "3", merge_sha: def}
    expect: {intent: accept, confidence: 0.9}
  - name: e4
    args: {pr_id: "4", merge_sha: ""}
    expect: {intent: refine, confidence: 0.9}
selection:
  strategy: cheapest_passing
`

type fixture struct {
	Profiles   string
	Models     string
	Repeat     int
	Comparator string
	MCP        bool
	Selection  string // extra lines under the effect (indented 8)
	Plugins    string // extra agent_plugins entries (indented 2)
	PlugEnv    string // extra env: entries of agent.plug (", K: v, ...")
}

// writeFixture writes the story and dataset into a temp dir and returns the
// dataset path.
func writeFixture(t testing.TB, f fixture) string {
	t.Helper()
	dir := t.TempDir()
	plugin := buildPlugin(t)
	mcpDecl := ""
	if f.MCP {
		mcpDecl = "  agent.mcp:\n    plugin: mcp_http\n    endpoint: " + mcpAgent(t) + "\n"
	}
	if f.Repeat == 0 {
		f.Repeat = 2
	}
	if f.Comparator == "" {
		f.Comparator = "{kind: enum, field: intent}"
	}
	app := strings.NewReplacer("@PLUGIN@", plugin, "@MCP@", mcpDecl+f.Plugins, "@SELECTION@", f.Selection, "@ENV@", f.PlugEnv).Replace(fixtureApp)
	ds := strings.NewReplacer("@PROFILES@", f.Profiles, "@MODELS@", f.Models, "@REPEAT@", fmt.Sprint(f.Repeat), "@COMPARATOR@", f.Comparator).Replace(fixtureDataset)
	files := map[string]string{
		"app.yaml":               app,
		"schemas/verdict.json":   fixtureSchema,
		"prompts/judge.md":       fixturePrompt,
		"evals/merge_judge.yaml": ds,
	}
	storytest.WriteTree(t, dir, files)
	return filepath.Join(dir, "evals", "merge_judge.yaml")
}

func mustValidate(t testing.TB, path string) *Validation {
	t.Helper()
	d, err := LoadDataset(path)
	if err != nil {
		t.Fatal(err)
	}
	v := Validate(d, nil)
	if !v.OK() {
		t.Fatalf("dataset invalid: %v", v.Findings)
	}
	return v
}
