package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// mcpUpstream is a real SDK MCP server answering the story's mcp_http alias.
func mcpUpstream(t *testing.T) string {
	t.Helper()
	return storytest.MCPAsk(t, "upstream", func(_ *mcp.CallToolRequest, ar agent.AskRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{"submission": map[string]any{"decision": "approve", "seen": ar.Prompt}}}, nil
	})
}

func mcpStoryDir(t *testing.T) string {
	t.Helper()
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": mcpstory.App("mcpcli",
			mcpstory.Call{Alias: "agent.remote", Endpoint: mcpUpstream(t), Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/verdict.json"}),
		"story/schemas/verdict.json": `{"type":"object","required":["decision"],"properties":{"decision":{"enum":["approve","reject"]},"seen":{"type":"string"}}}`,
		".kitsoki/plugins.yaml":      "config:\n  redact: {patterns: [\"sk-[a-z0-9]{6,}\"]}\n",
	})
	return filepath.Join(root, "story")
}

func TestMCPServeBinaryOverStdioAndHTTP(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	dir := mcpStoryDir(t)
	tracePath := filepath.Join(t.TempDir(), "mcp.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// stdio: the SDK client runs the real binary.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cmd := exec.Command(bin, "mcp", "serve", dir, "--trace", tracePath)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "kitsoki_agent_remote_decide" {
		t.Fatalf("tools: %v %+v", err, tools)
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "key sk-abcdef99 ok?"}})
	if err != nil || r.IsError {
		t.Fatalf("call: %v %+v", err, r)
	}
	m, _ := r.StructuredContent.(map[string]any)
	if m["decision"] != "approve" {
		t.Fatalf("structuredContent = %v", r.StructuredContent)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	tr, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tr), `"kind":"agent.call.complete"`) {
		t.Fatalf("trace lacks the call:\n%s", tr)
	}
	// Model-visible = logged: the redact hook masked the key before
	// dispatch, and the trace holds exactly what the plugin received.
	if m["seen"] != "key [redacted] ok?" {
		t.Fatalf("the plugin saw %q", m["seen"])
	}
	var tracedPrompt string
	for line := range strings.SplitSeq(strings.TrimSpace(string(tr)), "\n") {
		var ev struct {
			Kind    string `json:"kind"`
			Payload struct {
				Prompt string `json:"prompt"`
			} `json:"payload"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Kind == "agent.call.start" {
			tracedPrompt = ev.Payload.Prompt
		}
	}
	if tracedPrompt != m["seen"] {
		t.Fatalf("trace prompt %q != plugin prompt %q", tracedPrompt, m["seen"])
	}
	if strings.Contains(string(tr), "sk-abcdef99") {
		t.Fatal("the unredacted key reached the trace")
	}

	// HTTP with a bearer token from the environment.
	hcmd := exec.CommandContext(ctx, bin, "mcp", "serve", dir, "--http", "127.0.0.1:0", "--token-env", "KITSOKI_TEST_TOKEN", "--trace", filepath.Join(t.TempDir(), "h.jsonl"))
	hcmd.Env = append(os.Environ(), "KITSOKI_TEST_TOKEN=tok123")
	stderr, _ := hcmd.StderrPipe()
	if err := hcmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hcmd.Process.Signal(os.Interrupt); _ = hcmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	var url string
	re := regexp.MustCompile(`on (http://[^ ]+/)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
			break
		}
	}
	if url == "" {
		t.Fatal("no listening line on stderr")
	}
	hc := &http.Client{Transport: bearerRT{"tok123"}}
	hs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	r, err = hs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "p"}})
	if err != nil || r.IsError {
		t.Fatalf("HTTP call: %v %+v", err, r)
	}
}

type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMCPServeUsageErrors(t *testing.T) {
	dir := mcpStoryDir(t)
	var out, errb strings.Builder
	if code := Run([]string{"mcp", "serve", dir, "--http", "0.0.0.0:0"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "needs --token-env") {
		t.Fatalf("non-loopback without token: exit %d %s", code, errb.String())
	}
	errb.Reset()
	if code := Run([]string{"mcp", "serve", dir, "--http", ":0", "--token-env", "KITSOKI_SURELY_UNSET_VAR"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "empty or unset") {
		t.Fatalf("unset token: exit %d %s", code, errb.String())
	}
	errb.Reset()
	if code := Run([]string{"mcp", "serve", dir, "--max-calls", "-1"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--max-calls -1: at least one call") {
		t.Fatalf("--max-calls -1: exit %d %s", code, errb.String())
	}
}

// TestClaudeStandInSubmitsThroughMCP: the claude STAND-IN (the real CLI
// cannot run here) reads the MCP config kitsoki writes, starts the real
// `kitsoki mcp submit` server with the SDK client, has an invalid answer
// refused by the schema, and submits a valid one, which lands in --out.
func TestClaudeStandInSubmitsThroughMCP(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	standin := buildTestBinary(t, "kitsoki/internal/testing/claudestandin")
	dir := t.TempDir()
	schemaPath := filepath.Join(dir, "verdict.json")
	storytest.WriteTree(t, dir, map[string]string{"verdict.json": `{"type":"object","required":["decision"],"properties":{"decision":{"enum":["approve","reject"]}},"additionalProperties":false}`})
	out := filepath.Join(dir, "submission.json")
	cfg := filepath.Join(dir, "mcp.json")
	// The config the builtin.claude_cli transport writes (pkg/agent's claude_submit.go).
	cfgJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"kitsoki": map[string]any{
		"type": "stdio", "command": bin, "args": []string{"mcp", "submit", "--schema", schemaPath, "--out", out}}}})
	if err := os.WriteFile(cfg, cfgJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	const tool = "mcp__kitsoki__submit"
	cmd := exec.Command(standin, "-p", "--output-format", "json", "--mcp-config", cfg, "--allowedTools", tool)
	cmd.Stdin = strings.NewReader("Decide.")
	cmd.Env = append(os.Environ(), `STANDIN_ANSWER={"decision":"reject"}`)
	envelope, err := cmd.Output()
	if err != nil {
		t.Fatalf("stand-in: %v (%s)", err, envelope)
	}
	got, err := os.ReadFile(out)
	if err != nil || string(got) != `{"decision":"reject"}` {
		t.Fatalf("submission = %q, %v", got, err)
	}
	if !strings.Contains(string(envelope), `"subtype":"success"`) {
		t.Fatalf("envelope %s", envelope)
	}
}

// TestClaudeCLIDecideSubmitsThroughMCP: builtin.claude_cli, given the
// submit command, hands the claude STAND-IN an MCP config; the stand-in's
// text answer is not JSON, so the validated submission can only have come
// through the submit tool. An ask call keeps the plain-text path. The
// call's temporary directory is gone after it, and the first call swept
// the one a killed kitsoki left (its lock file free, a minute old).
func TestClaudeCLIDecideSubmitsThroughMCP(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	standin := buildTestBinary(t, "kitsoki/internal/testing/claudestandin")
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	left := filepath.Join(tmp, "kitsoki-submit-killed")
	storytest.WriteTree(t, tmp, map[string]string{"kitsoki-submit-killed/schema.json": "{}", "kitsoki-submit-killed.lock": ""})
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(left+".lock", old, old)
	reg, sch := submitRegistry(t, bin, standin, dir, false)
	res, err := reg.Dispatch(context.Background(), agent.Call{Verb: "decide", Turn: 1, StatePath: "s", Prompt: "Decide.", Schema: sch})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Submission) != `{"decision":"reject"}` {
		t.Fatalf("decide submission = %s", res.Submission)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("left in TMPDIR after the submit call: %v", ents)
	}
	res, err = reg.Dispatch(context.Background(), agent.Call{Verb: "ask", Turn: 1, StatePath: "s", Prompt: "Decide.", Schema: sch})
	if err != nil || string(res.Submission) != `{"decision":"approve"}` {
		t.Fatalf("ask (plain text) = %v %s", err, res.Submission)
	}
}

// TestClaudeDefaultAskSubmitsThroughMCP: on upstream's default verb path
// (the injected agent.claude), an ask with an object schema gets the
// submit tool as decide does; the claude STAND-IN submits through it, so
// the call's Reply says Submitted and its submission is the validated
// answer, while the reply text (not JSON) stays the text. Without a schema
// the reply is text only (conformance ask-default-result).
func TestClaudeDefaultAskSubmitsThroughMCP(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	standin := buildTestBinary(t, "kitsoki/internal/testing/claudestandin")
	dir := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	reg, sch := submitRegistry(t, bin, standin, dir, true)
	res, err := reg.Dispatch(context.Background(), agent.Call{Verb: "ask", Turn: 1, StatePath: "s", Prompt: "Decide.", Schema: sch})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reply == nil || !res.Reply.Submitted || string(res.Submission) != `{"decision":"reject"}` {
		t.Fatalf("ask with a schema: reply %+v, submission %s; want the answer submitted through the tool", res.Reply, res.Submission)
	}
	if res.Reply.Text != "I submitted my answer through the submit tool." {
		t.Errorf("reply text %q", res.Reply.Text)
	}
	res, err = reg.Dispatch(context.Background(), agent.Call{Verb: "ask", Turn: 1, StatePath: "s", Prompt: "Decide."})
	if err != nil || res.Reply == nil || res.Reply.Submitted || res.Reply.Text != `{"decision":"approve"}` {
		t.Fatalf("ask without a schema = %v, reply %+v", err, res.Reply)
	}
}

// submitRegistry is a registry whose agent.claude (the injected default
// when injected) is the claude STAND-IN standin, given kitsoki's submit
// server, closed with the test, and the schema its tests decide against.
func submitRegistry(t *testing.T, bin, standin, dir string, injected bool) (*agent.Registry, *schema.Schema) {
	t.Helper()
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, Injected: injected, ClaudeBin: standin, Env: map[string]string{"STANDIN_ANSWER": `{"decision":"reject"}`}},
	}, agent.RegistryOptions{AppID: "submit", StoryDir: dir, ClaudeSubmit: []string{bin, "mcp", "submit"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	sch, err := schema.CompileBytes("verdict.json", []byte(`{"type":"object","required":["decision"],"properties":{"decision":{"enum":["approve","reject"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return reg, sch
}
