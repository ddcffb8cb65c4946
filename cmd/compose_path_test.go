package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
)

// onePathStory calls agent.plug (a real subprocess plugin, echoagent,
// whose answer's echo_prompt_head is the prompt it received) once; agent.other is
// declared and never called. Its flow fixture reaches agent.plug through
// host_bindings (any binding, here one no interface has, runs a fixture's
// real agents; a host_cassette answers host.agent.decide itself, no
// plugin), its eval measures agent.plug.
const onePathStory = `app: {id: onepath, version: 0.1.0}
agent_plugins:
  agent.plug: {plugin: subprocess, command: %q}
  agent.other: {plugin: subprocess, command: %q}
hosts: [host.agent.decide]
world:
  out: {type: object, default: {}}
  sha: {type: string, default: x}
intents:
  go: {description: "go"}
root: idle
states:
  idle:
    on:
      go: [{target: s}]
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        agent: agent.plug
        with: {prompt: "pick tok-xyz-4242", schema: schemas/pick.json, args: {merge_sha: "{{ world.sha }}"}}
        bind: {out: submitted}
    terminal: true
`

// onePathFiles are the repository files of onePathStory (its flow fixture
// and eval), as TestOneCompositionRoot writes them.
func onePathFiles(echo string) map[string]string {
	return map[string]string{
		"app.yaml":          fmt.Sprintf(onePathStory, echo, echo),
		"schemas/pick.json": `{"type": "object"}`,
		"flows/pick.yaml": "test_kind: flow\napp: ../app.yaml\ninitial_state: idle\nuse_orchestrator: true\nhost_bindings: {none: host.run}\n" +
			"turns:\n  - intent: go\n    expect_state: s\n    expect_world: {last_error: \"\"}\nexpect_terminal: true\n",
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: [plug]}\n" +
			"comparator: field_subset\nexamples: [{name: a, args: {merge_sha: x}, expect: {echo_prompt_head: never}}]\n",
	}
}

// secretPrompt is the call's prompt; the redact row's pattern masks its
// token.
const (
	secretPrompt = "pick tok-xyz-4242"
	maskedPrompt = "pick [redacted]"
)

// onePathOutcome is what one command did with agent.plug: "answered"
// (the call reached the plugin, or the cassette standing in for it, and
// its answer the command's result) or "refused" (the command refused the
// alias, as disabled by the operator profile). saw is the call's prompt
// as the plugin received it (echoagent's echo_prompt_head; for
// kitsoki test, the trace's agent.call.start, which records the request
// sent).
type onePathOutcome struct {
	outcome, saw, detail string
}

// TestOneCompositionRoot: run, test, eval run and mcp serve build their
// plugin side through one composition root (pkg/compose), so one operator
// profile (.kitsoki/plugins.yaml found upward from the story, the default
// of every command) has the same effect on all four: with no profile, or
// one disabling another alias, agent.plug answers everywhere and sees the
// prompt as written; a profile disabling agent.plug makes every command
// refuse it, naming the alias; a redact pattern masks the prompt every
// command sends. A command building its registry or hooks by hand would
// miss the profile.
func TestOneCompositionRoot(t *testing.T) {
	t.Parallel() // in process and its own subprocesses, each row in its own temp dir
	storytest.NeedGo(t)
	echo := echoAgent(t)
	commands := []struct {
		name string
		run  func(t *testing.T, dir string) onePathOutcome
	}{
		{"run", onePathRun},
		{"test", onePathTest},
		{"eval run", onePathEval},
		{"mcp serve", onePathMCP},
	}
	rows := []struct {
		name, profile, want, saw string
	}{
		{"no profile", "", "answered", secretPrompt},
		{"another alias disabled", "disable: [agent.other]\n", "answered", secretPrompt},
		{"the alias disabled", "disable: [agent.plug]\n", "refused", ""},
		{"redact pattern", "config:\n  redact: {patterns: [\"tok-xyz-[0-9]+\"]}\n", "answered", maskedPrompt},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			files := onePathFiles(echo)
			if row.profile != "" {
				files[".kitsoki/plugins.yaml"] = row.profile
			}
			storytest.WriteTree(t, dir, files)
			for _, c := range commands {
				got := c.run(t, dir)
				if got.outcome != row.want {
					t.Errorf("%s: agent.plug %s, want %s (the same as every other command)\n%s", c.name, got.outcome, row.want, got.detail)
					continue
				}
				if row.saw != "" && (!strings.Contains(got.saw, row.saw) || (row.saw != secretPrompt && strings.Contains(got.saw, "tok-xyz"))) {
					t.Errorf("%s: the plugin saw %q, want the prompt %q (the same as every other command)\n%s", c.name, got.saw, row.saw, got.detail)
				}
			}
		})
	}
}

// refusedText is how every command names the refusal of agent.plug.
const refusedText = "agent.plug is disabled in the plugin assembly"

// promptOf is the prompt echoagent received, from its answer.
func promptOf(answer any) string {
	m, _ := answer.(map[string]any)
	p, _ := m["echo_prompt_head"].(string)
	return p
}

// cliVerdict names what a command did with the call: answered (with the
// prompt the agent saw), refused with refusedText, or neither.
func cliVerdict(answered bool, saw string, code int, detail string) onePathOutcome {
	switch {
	case answered:
		return onePathOutcome{"answered", saw, detail}
	case code != 0 && strings.Contains(detail, refusedText):
		return onePathOutcome{"refused", "", detail}
	}
	return onePathOutcome{"neither answered nor refused", "", detail}
}

func onePathRun(t *testing.T, dir string) onePathOutcome {
	var out, errb bytes.Buffer
	code := Run([]string{"run", dir, "--json", "--intent", "go", "--trace", filepath.Join(t.TempDir(), "t.jsonl")}, &out, &errb)
	detail := fmt.Sprintf("exit %d\n%s%s", code, out.String(), errb.String())
	var res struct {
		World map[string]any `json:"world"`
		Calls []struct {
			OK bool `json:"ok"`
		} `json:"calls"`
	}
	_ = json.Unmarshal(out.Bytes(), &res)
	saw := promptOf(res.World["out"])
	if code == 0 && len(res.Calls) == 1 && !res.Calls[0].OK && strings.Contains(detail, refusedText) {
		// a refused call without on_error does not fail the run (as a
		// test session): the refusal is the call's error and last_error
		return onePathOutcome{"refused", "", detail}
	}
	return cliVerdict(code == 0 && saw != "", saw, code, detail)
}

func onePathTest(t *testing.T, dir string) onePathOutcome {
	var out, errb bytes.Buffer
	traces := t.TempDir()
	code := Run([]string{"test", dir, "--trace-dir", traces}, &out, &errb)
	detail := fmt.Sprintf("exit %d\n%s%s", code, out.String(), errb.String())
	saw := ""
	files, _ := filepath.Glob(filepath.Join(traces, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for line := range strings.SplitSeq(string(b), "\n") {
			var ev struct {
				Kind    string         `json:"kind"`
				Payload map[string]any `json:"payload"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Kind == "agent.call.start" {
				saw, _ = ev.Payload["prompt"].(string)
			}
		}
	}
	return cliVerdict(code == 0 && strings.Contains(out.String(), "1 passed, 0 failed"), saw, code, detail)
}

func onePathEval(t *testing.T, dir string) onePathOutcome {
	var out, errb bytes.Buffer
	report := filepath.Join(t.TempDir(), "r.json")
	code := Run([]string{"eval", "run", filepath.Join(dir, "evals", "pick.yaml"), "-o", report, "--no-progress", "-j", "1"}, &out, &errb)
	detail := fmt.Sprintf("exit %d\n%s%s", code, out.String(), errb.String())
	var rep struct {
		FailureSamples []struct {
			Actual any `json:"actual"`
		} `json:"failure_samples"`
	}
	if b, err := os.ReadFile(report); err == nil {
		_ = json.Unmarshal(b, &rep)
	}
	saw := ""
	if len(rep.FailureSamples) == 1 {
		saw = promptOf(rep.FailureSamples[0].Actual)
	}
	// answered: the example's expect (never) failed the answer
	return cliVerdict(code == 1 && saw != "", saw, code, detail)
}

// onePathMCP serves the story over in-process pipes (the stdio transport
// of kitsoki mcp serve) to the Go SDK client: a disabled alias has no
// tool, and a call to its tool is refused as not offered.
func onePathMCP(t *testing.T, dir string) onePathOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	toSrvR, toSrvW := io.Pipe()
	toCliR, toCliW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan error, 1)
	sctx, stop := context.WithCancel(ctx)
	go func() {
		done <- runMCPServe(sctx, toSrvR, toCliW, &errb, dir, &mcpServeFlags{tracePath: filepath.Join(t.TempDir(), "mcp.jsonl")})
		toCliW.Close()
	}()
	defer func() {
		stop()
		toSrvW.Close()
		<-done
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "onepath", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: toCliR, Writer: toSrvW}, nil)
	if err != nil {
		return onePathOutcome{"neither answered nor refused", "", "connect: " + err.Error() + "\n" + errb.String()}
	}
	defer cs.Close()
	lr, err := cs.ListTools(ctx, nil)
	if err != nil {
		return onePathOutcome{"neither answered nor refused", "", "list: " + err.Error()}
	}
	var names []string
	for _, tl := range lr.Tools {
		names = append(names, tl.Name)
	}
	const tool = "kitsoki_agent_plug_decide"
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"prompt": secretPrompt, "args": map[string]any{"merge_sha": "x"}}})
	detail := fmt.Sprintf("tools %v; call: %v", names, err)
	saw := ""
	if r != nil {
		b, _ := json.Marshal(r)
		detail += " " + string(b)
		saw = promptOf(r.StructuredContent)
	}
	listed := slices.Contains(names, tool)
	switch {
	case listed && err == nil && !r.IsError && saw != "":
		return onePathOutcome{"answered", saw, detail}
	case !listed && err == nil && r.IsError && strings.Contains(detail, "the story does not offer it"):
		return onePathOutcome{"refused", "", detail}
	}
	return onePathOutcome{"neither answered nor refused", "", detail}
}
