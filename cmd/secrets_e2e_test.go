package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/leak"
	"kitsoki/internal/testing/storytest"
)

// e2eSecret has a quote, a backslash, non-ASCII and an astral rune, so its
// raw, JSON-escaped, ASCII-escaped and URL-encoded forms all differ.
const e2eSecret = `sk-"quo\te"-ünï-🔑-9f3a`

// leakyMCP is a real MCP server (the official SDK) whose "ask" tool echoes
// the bearer token it is sent through the channel with.channel names.
func leakyMCP(t *testing.T) string {
	t.Helper()
	type askArgs struct {
		CallID string         `json:"call_id"`
		With   map[string]any `json:"with"`
	}
	return storytest.MCPAsk(t, "leaky", func(req *mcp.CallToolRequest, ask askArgs) (*mcp.CallToolResult, error) {
		secret := strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")
		channel, _ := ask.With["channel"].(string)
		if channel == "" {
			channel, _ = ask.With["prompt"].(string) // from mcp serve
		}
		alias, _ := ask.With["alias"].(string)
		if alias == "" {
			alias = "agent.remote"
		}
		r := leak.For(channel, secret, alias, ask.CallID)
		if r.IsErrText != "" || r.Crash {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: r.IsErrText + r.Stderr}}}, nil
		}
		b, _ := json.Marshal(r.Result)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
}

// TestSecretsNeverReachAnyOutput runs real stories against a real
// subprocess plugin and a real MCP server that echo a ${VAR} secret in
// every channel they control, then greps every byte kitsoki wrote — run's
// stdout and stderr (log and --json), the trace, every sidecar file, and
// the output of every trace subcommand (and the files they write) — for
// every form of the secret. One row per channel and transport.
func TestSecretsNeverReachAnyOutput(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	if testing.Short() {
		t.Skip("builds kitsoki and a plugin")
	}
	bin := buildKitsoki(t)
	plugin := buildTestBinary(t, "kitsoki/internal/testing/leakyplugin")
	endpoint := leakyMCP(t) + "/mcp"
	type row struct{ alias, channel string }
	var rows []row
	for _, ch := range []string{leak.Answer, leak.Meta, leak.SubEvent, leak.Stderr, leak.Error, leak.ErrorData} {
		rows = append(rows, row{"agent.leaky", ch})
	}
	for _, ch := range []string{leak.Answer, leak.Meta, leak.SubEvent, leak.Error, leak.ErrorData} {
		rows = append(rows, row{"agent.remote", ch})
	}
	for _, r := range rows {
		t.Run(r.alias+"/"+r.channel, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			story := filepath.Join(dir, "story")
			storytest.WriteTree(t, dir, map[string]string{"story/app.yaml": fmt.Sprintf(`app: { id: leaky }
world:
  out: { type: object, default: {} }
  m:   { type: object, default: {} }
agent_plugins:
  agent.leaky:
    plugin: subprocess
    command: %q
    env: { LEAK_KEY: "${LEAK_KEY}" }
  agent.remote:
    plugin: mcp_http
    endpoint: %q
    headers: { Authorization: "Bearer ${LEAK_KEY}" }
intents:
  done: {}
root: ask
states:
  ask:
    on_enter:
      - invoke: host.agent.ask
        id: leakcall
        agent: %s
        with: { prompt: "go", channel: %s, alias: %s }
        bind: { out: submitted, m: meta }
      # false where the chain reaches it; fires in the post-bind pass
      - when: "len(world.out) > 0"
        emit_intent: done
    on:
      done: [ { target: shown } ]
  shown:
    terminal: true
    on_enter:
      - say: "answer: {{ world.out.text }} meta: {{ world.m.token }} {{ world.m.model }}"
`, plugin, endpoint, r.alias, r.channel, r.alias),
				"story/evals/leak.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: leakcall\nmatrix: {profiles: [" + strings.TrimPrefix(r.alias, "agent.") + "]}\ncomparator: exact\nexamples:\n  - {name: one, expect: {text: ok}}\n"})
			outputs := map[string][]byte{}
			kit := func(name string, args ...string) {
				cmd := exec.Command(bin, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "LEAK_KEY="+e2eSecret)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				_ = cmd.Run() // failing rows fail the run: only the bytes matter
				outputs[name+" stdout"] = stdout.Bytes()
				outputs[name+" stderr"] = stderr.Bytes()
			}
			tr := filepath.Join(dir, "traces", "run.jsonl")
			kit("run", "run", story, "--trace", tr)
			kit("run --json", "run", story, "--json", "--trace", filepath.Join(dir, "traces", "json.jsonl"))
			cas := filepath.Join(dir, "cassette.yaml")
			for _, args := range [][]string{
				{"trace", "verify", tr}, {"trace", "show", tr}, {"trace", "show", "--prompts", tr},
				{"trace", "calls", tr}, {"trace", "calls", "--json", tr}, {"trace", "stats", tr}, {"trace", "stats", "--json", tr},
				{"trace", "to-cassette", tr, "-o", cas}, {"trace", "export", "--format", "otlp-json", tr},
				{"trace", "ls", "--json"},
			} {
				kit(strings.Join(args, " "), args...)
			}
			// eval: the call site measured against the leaking plugin; its
			// report lands under story/evals/reports/ (walked below).
			kit("eval run", "eval", "run", filepath.Join(story, "evals", "leak.yaml"))
			if r.channel == leak.Answer {
				if rep, err := os.ReadFile(filepath.Join(story, "evals", "reports", "leakcall", "latest.json")); err != nil || !bytes.Contains(rep, []byte("REDACTED")) {
					t.Errorf("the eval report holds no masked echo (%v):\n%s", err, rep)
				}
			}
			// mcp serve: the story's agent as an MCP tool, over stdio.
			mcpServe(t, bin, story, r.alias, r.channel, filepath.Join(dir, "traces", "mcp.jsonl"), outputs)
			// Every file kitsoki wrote: traces, sidecars, the cassette.
			_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
				if err == nil && fi.Mode().IsRegular() && !strings.HasSuffix(p, "app.yaml") && !strings.HasSuffix(p, "leak.yaml") {
					b, _ := os.ReadFile(p)
					outputs["file "+strings.TrimPrefix(p, dir)] = b
				}
				return nil
			})
			t.Logf("run: %s%s\neval: %s%s", outputs["run stdout"], outputs["run stderr"], outputs["eval run stdout"], outputs["eval run stderr"])
			if r.channel == leak.Answer && !bytes.Contains(outputs["run stdout"], []byte("say: answer: raw:[REDACTED]")) {
				t.Errorf("the masked answer did not reach say:\n%s", outputs["run stdout"])
			}
			if len(outputs["file /traces/run.jsonl"]) == 0 {
				t.Fatalf("no trace written; run said:\n%s", outputs["run stderr"])
			}
			for name, b := range outputs {
				for form, v := range leak.Forms(e2eSecret) {
					if bytes.Contains(b, []byte(v)) {
						t.Errorf("%s: the secret's %s form %q leaked:\n%s", name, form, v, excerpt(b, v))
					}
				}
			}
			// The run did see the echo (masked): the test is not vacuous.
			all := bytes.Join(func() [][]byte {
				var v [][]byte
				for _, b := range outputs {
					v = append(v, b)
				}
				return v
			}(), nil)
			if !bytes.Contains(all, []byte("[REDACTED]")) {
				t.Errorf("no [REDACTED] anywhere: the plugin's echo never arrived")
			}
		})
	}
}

// mcpServe calls the row's agent through `kitsoki mcp serve` and records
// the tool result and the server's stderr.
func mcpServe(t *testing.T, bin, story, alias, channel, trace string, outputs map[string][]byte) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "serve", story, "--trace", trace)
	cmd.Env = append(os.Environ(), "LEAK_KEY="+e2eSecret)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("mcp serve: %v\n%s", err, stderr.String())
	}
	tool := "kitsoki_" + strings.ReplaceAll(alias, ".", "_") + "_ask"
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"prompt": channel}})
	if err != nil {
		outputs["mcp serve call error"] = []byte(err.Error())
	}
	b, _ := json.Marshal(res)
	outputs["mcp serve result"] = b
	_ = cs.Close()
	outputs["mcp serve stderr"] = stderr.Bytes()
	if channel == leak.Answer && !bytes.Contains(b, []byte("[REDACTED]")) {
		t.Errorf("mcp serve result holds no masked echo: %s %s", b, stderr.String())
	}
}

func excerpt(b []byte, v string) string {
	i := bytes.Index(b, []byte(v))
	lo, hi := max(0, i-200), min(len(b), i+len(v)+200)
	return string(b[lo:hi])
}
