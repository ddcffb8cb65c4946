package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/gotype"
	"kitsoki/internal/testing/parked"
	"kitsoki/pkg/story"
)

// The claude CLI cannot run on test machines, so these tests use a
// STAND-IN: internal/testing/agentplugins/fakeclaude, a Go program built by the test
// that mimics the real CLI's print-mode JSON envelope (see its doc).

func newClaudeTransport(t *testing.T, bin, model string, env map[string]string) *claudeCLITransport {
	t.Helper()
	tr, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Model: model, Env: env},
		BuildContext{StoryDir: t.TempDir(), Redact: func(s string) string { return strings.ReplaceAll(s, "sk-live-secret", "[REDACTED]") }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr.(*claudeCLITransport)
}

func TestClaudeCLIStandIn(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	answer := `{"decision":"go","confidence":0.9}`

	t.Run("fenced answer, argv, stdin, meta", func(t *testing.T) {
		CheckNoChildren(t)
		record := filepath.Join(t.TempDir(), "record.json")
		tr := newClaudeTransport(t, bin, "claude-haiku-4-5", map[string]string{"FAKE_CLAUDE_ANSWER": answer, "FAKE_CLAUDE_RECORD": record})
		req := referenceRequest()
		req.Schema = json.RawMessage(`{"type":"object","required":["decision"]}`)
		resp := askOK(t, tr, req)
		if string(resp.Submission) != answer {
			t.Fatalf("submission %s", resp.Submission)
		}
		var rec struct {
			Args  []string
			Stdin string
		}
		b, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(b, &rec)
		if got := strings.Join(rec.Args, " "); got != "-p --output-format json --model=claude-haiku-4-5" {
			t.Fatalf("argv %q", got)
		}
		if !strings.HasPrefix(rec.Stdin, req.Prompt+"\n\n") || !strings.Contains(rec.Stdin, `{"type":"object","required":["decision"]}`) {
			t.Fatalf("stdin %q", rec.Stdin)
		}
		if resp.Meta["cost_usd"] != 0.0123 || resp.Meta["model"] != "claude-haiku-4-5" || resp.Meta["transport"] != "claude_cli" {
			t.Fatalf("meta %v", resp.Meta)
		}
		usage, _ := resp.Meta["usage"].(map[string]any)
		if usage["input_tokens"] != int64(11) || usage["output_tokens"] != int64(42) || usage["cache_read_input_tokens"] != int64(3000) {
			t.Fatalf("usage %v", usage)
		}
	})
	t.Run("persona model wins", func(t *testing.T) {
		CheckNoChildren(t)
		record := filepath.Join(t.TempDir(), "record.json")
		tr := newClaudeTransport(t, bin, "claude-haiku-4-5", map[string]string{"FAKE_CLAUDE_RECORD": record})
		resp, err := tr.Ask(withCall(context.Background(), callExtras{model: "claude-opus-4-1"}), referenceRequest())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(record)
		if !strings.Contains(string(b), `"--model=claude-opus-4-1"`) || resp.Meta["model"] != "claude-opus-4-1" {
			t.Fatalf("argv record %s, meta %v", b, resp.Meta)
		}
	})
	t.Run("persona model reaches the CLI through Dispatch", func(t *testing.T) {
		CheckNoChildren(t)
		record := filepath.Join(t.TempDir(), "record.json")
		reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{
			"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Model: "claude-haiku-4-5",
				Env: map[string]string{"FAKE_CLAUDE_RECORD": record, "FAKE_CLAUDE_ANSWER": answer}},
		}, RegistryOptions{AppID: "t", StoryDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Close()
		if _, err := reg.Dispatch(context.Background(), Call{Alias: "agent.claude", Verb: "ask", Prompt: "hi", Model: "claude-opus-4-1", Turn: 1, StatePath: "s"}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(record)
		if !strings.Contains(string(b), `"--model=claude-opus-4-1"`) {
			t.Fatalf("the persona model did not reach the CLI: %s", b)
		}
	})
	for _, mode := range []string{"plain", "structured"} {
		t.Run(mode, func(t *testing.T) {
			CheckNoChildren(t)
			tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_ANSWER": answer, "FAKE_CLAUDE_MODE": mode})
			if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != answer {
				t.Fatalf("submission %s", resp.Submission)
			}
		})
	}
	t.Run("prose answer", func(t *testing.T) {
		CheckNoChildren(t)
		tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_ANSWER": "I think we should go.", "FAKE_CLAUDE_MODE": "plain"})
		if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != `"I think we should go."` {
			t.Fatalf("without a schema a prose answer is a JSON string; got %s", resp.Submission)
		}
		req := referenceRequest()
		req.Schema = json.RawMessage(`{"type":"object"}`)
		if resp := askOK(t, tr, req); string(resp.Submission) != `I think we should go.` {
			t.Fatalf("with a schema the raw text is kept for validation; got %s", resp.Submission)
		}
	})
	faults := []struct {
		mode, kind, detail string
	}{
		{"is_error", string(KindTransportError), "invalid x-api-key"},
		{"crash", string(KindPluginCrash), "exit status 2"},
		{"not_json", string(KindPluginCrash), "this is not a JSON envelope"},
	}
	for _, c := range faults {
		t.Run(c.mode, func(t *testing.T) {
			CheckNoChildren(t)
			tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_MODE": c.mode, "ANTHROPIC_API_KEY": "sk-live-secret"})
			ae := askKind(t, tr, context.Background(), referenceRequest(), Kind(c.kind))
			if !strings.Contains(ae.Detail, c.detail) || strings.Contains(ae.Detail, "sk-live-secret") {
				t.Fatalf("detail: %s", ae.Detail)
			}
		})
	}
	t.Run("hang", func(t *testing.T) {
		CheckNoChildren(t)
		tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_MODE": "hang"})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		askKind(t, tr, ctx, referenceRequest(), KindDeadlineExceeded)
	})
}

func TestClaudeCLIMissingBinary(t *testing.T) {
	tr := newClaudeTransport(t, filepath.Join(t.TempDir(), "claude"), "", nil)
	ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
	if !strings.Contains(ae.Detail, "claude_bin:") || !strings.Contains(ae.Detail, "npm install -g @anthropic-ai/claude-code") {
		t.Fatalf("detail: %s", ae.Detail)
	}
	t.Setenv("PATH", t.TempDir())
	tr = newClaudeTransport(t, "", "", nil)
	ae = askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
	for _, want := range []string{"not found on PATH", "builtin.local_llm", "subprocess or mcp_http"} {
		if !strings.Contains(ae.Detail, want) {
			t.Fatalf("detail lacks %q: %s", want, ae.Detail)
		}
	}
}

func TestStripCodeFence(t *testing.T) {
	cases := map[string]string{
		`{"a":1}`:                 `{"a":1}`,
		"```json\n{\"a\":1}\n```": `{"a":1}`,
		"```\n[1,2]\n```\n":       `[1,2]`,
		"Here you go:\n```json\n{\"a\":1}\n```\nok": `{"a":1}`,
		"```json\r\n{\"a\":1}\r\n```":               `{"a":1}`,
		"```json\n{\"a\":1}":                        `{"a":1}`,
		"  plain words  ":                           `plain words`,
	}
	for in, want := range cases {
		if got := StripCodeFence(in); got != want {
			t.Errorf("StripCodeFence(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzClaudeEnvelope: any stdout of the claude CLI: an envelope found is
// of type result; a refusal names no Go type; structured_output, when
// given, is the submission as written; without a schema the submission is
// JSON, and the reply itself when it is not JSON (nothing cut or changed);
// num_turns read is the number written, exactly (math/big's reading), and a
// num_turns that is no whole number is refused naming it.
func FuzzClaudeEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"type":"result","subtype":"success","is_error":false,"result":"` + "```json\\n{\\\"a\\\":1}\\n```" + `","total_cost_usd":0.1,"usage":{"input_tokens":1,"output_tokens":2}}`,
		`{"type":"result","structured_output":{"a":1},"result":"x"}`,
		"warning: something\n{\"type\":\"result\",\"result\":\"[1]\"}",
		`{"type":"assistant"}`,
		`not json`,
		``,
		`{"type":"result","result":5}`,
		`{"type":"result","num_turns":1.5,"result":"x"}`,
		`{"type":"result","num_turns":3.0,"NUM_TURNS":2e0,"result":"x"}`,
		`{"type":"result","num_turns":12345678901234567890e-10,"result":"x"}`,
		`{"type":"result","result":" \u00a0{\"a\":1}"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		env, err := parseClaudeEnvelope(out)
		turns, whole := lastTurns(out)
		if err != nil {
			if n := gotype.Named(err.Error(), out); n != "" || strings.Contains(err.Error(), "claudeEnvelope") {
				t.Fatalf("%q: %q names a Go type (%s)", out, err, n)
			}
			if whole && turns.IsInt() && turns.Num().IsInt64() && strings.Contains(err.Error(), "num_turns") {
				t.Fatalf("%q: num_turns %v refused: %v", out, turns, err)
			}
			return
		}
		if turns != nil && (!whole || !turns.IsInt() || !turns.Num().IsInt64() || env.NumTurns != turns.Num().Int64()) {
			t.Fatalf("%q: num_turns %v read as %d", out, turns, env.NumTurns)
		}
		if env.Type != "result" {
			t.Fatalf("%q: envelope of type %q taken", out, env.Type)
		}
		so := bytes.TrimSpace(env.StructuredOutput)
		for _, schema := range []bool{false, true} {
			sub := claudeSubmission(env, schema)
			switch {
			case len(so) > 0 && string(so) != "null":
				if !bytes.Equal(sub, so) {
					t.Fatalf("structured_output %s, submission %s", so, sub)
				}
			case !schema:
				if !json.Valid(sub) {
					t.Fatalf("without a schema the submission must be JSON: %q", sub)
				}
				var text string
				if !json.Valid([]byte(strings.TrimSpace(env.Result))) && (json.Unmarshal(sub, &text) != nil || text != env.Result) {
					t.Fatalf("reply %q became %s", env.Result, sub)
				}
			}
		}
	})
}

// lastTurns is the num_turns member of out when out is one JSON object of
// type result, as encoding/json picks it (the last key equal to it under
// case folding), read exactly; whole reports an exponent small enough for
// math/big to read it, so nil with whole is a member that is no number.
func lastTurns(out []byte) (turns *big.Rat, whole bool) {
	var probe struct{ Type string }
	if json.Unmarshal(out, &probe) != nil || probe.Type != "result" {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var raw json.RawMessage
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		key, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return nil, false
		}
		if k, _ := key.(string); strings.EqualFold(k, "num_turns") {
			raw = v
		}
	}
	n := string(bytes.TrimSpace(raw))
	if n == "" || n == "null" {
		return nil, false
	}
	if _, exp, _ := strings.Cut(strings.ToLower(n), "e"); len(exp) > 5 {
		return nil, false // math/big would build a number of that many digits
	}
	r, ok := new(big.Rat).SetString(n)
	if !ok || n[0] == '"' {
		return nil, true
	}
	return r, true
}

// Without a schema the claude CLI's reply is the answer as written: a
// reply that is all JSON stays JSON, any other text (prose around a code
// block included) is kept whole, as upstream's ask/converse bind it
// (probed with a stand-in claude: upstream's stdout was the fenced reply
// and its whitespace; ours bound only the block's content). With a schema
// the fenced JSON is recovered, as upstream's decide does.
func TestClaudeSubmissionWithoutSchemaKeepsText(t *testing.T) {
	for _, c := range []struct {
		result    string
		hasSchema bool
		want      string
	}{
		{"Here is the code:\n```python\nprint(1)\n```\n", false, `"Here is the code:\n` + "```python\\nprint(1)\\n```" + `\n"`},
		{"```json\n{\"a\":1}\n```", false, `"` + "```json\\n{\\\"a\\\":1}\\n```" + `"`},
		{"  plain words  ", false, `"  plain words  "`},
		{" {\"a\":1} ", false, `{"a":1}`},
		{"```json\n{\"a\":1}\n```", true, `{"a":1}`},
	} {
		got := claudeSubmission(&claudeEnvelope{Result: c.result}, c.hasSchema)
		if string(got) != c.want {
			t.Errorf("claudeSubmission(%q, schema=%v) = %s, want %s", c.result, c.hasSchema, got, c.want)
		}
	}
}

// waitExited returns once every claude process tr runs has exited.
func waitExited(tr *claudeCLITransport) {
	tr.mu.Lock()
	running := slices.Collect(maps.Keys(tr.running))
	tr.mu.Unlock()
	for _, pr := range running {
		<-pr.Done()
	}
}

// A claude that exited with its answer as the call's context ended has
// answered (the context ends once claude exited, so Ask's select starts
// with both ready): with the old random choice between the two ready cases, 100
// rounds (a process each) all passing has odds of 2^-100.
func TestClaudeCLIAnswerReadyAtDeadline(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	answer := `{"decision":"go"}`
	tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_ANSWER": answer, "FAKE_CLAUDE_MODE": "plain"})
	for i := range 100 {
		resp, err := tr.Ask(parked.Ending(func() { waitExited(tr) }, context.DeadlineExceeded), referenceRequest())
		if err != nil || string(resp.Submission) != answer {
			t.Fatalf("round %d: %v; want the answer claude wrote before the context ended", i, err)
		}
	}
}

// Story text that looks like an option (a persona's system prompt or model
// starting with "-") reaches the claude CLI as the value of its flag, never
// as an option: the STAND-IN parses its argv as strictly as any option
// parser might (internal/testing/claudeargs), reading a "-..." argument
// after a flag as the next option.
func TestClaudeCLIStoryTextIsNeverAnOption(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	for _, inherit := range []bool{false, true} {
		CheckNoChildren(t)
		record := filepath.Join(t.TempDir(), "record.json")
		tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_RECORD": record, "FAKE_CLAUDE_MODE": "plain", "FAKE_CLAUDE_ANSWER": `"ok"`})
		x := callExtras{model: "--dangerously-skip-permissions", systemPrompt: "--mcp-config=/tmp/evil.json", inherit: inherit}
		if _, err := tr.Ask(withCall(context.Background(), x), referenceRequest()); err != nil {
			t.Fatalf("inherit=%v: %v", inherit, err)
		}
		var rec struct{ Opts map[string]string }
		b, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		flag := "--system-prompt"
		if inherit {
			flag = "--append-system-prompt"
		}
		want := map[string]string{"-p": "", "--output-format": "json", "--model": x.model, flag: x.systemPrompt}
		if !maps.Equal(rec.Opts, want) {
			t.Fatalf("inherit=%v: the CLI parsed %v, want %v", inherit, rec.Opts, want)
		}
	}
}

// TestClaudeCLIRawStdout: the injected default agent.claude (upstream's
// default verb path) that exits 0 without a result envelope replies with
// its stdout, JSON object lines dropped and trailing newlines cut
// (conformance claude-raw-stdout); a declared builtin.claude_cli alias
// still refuses it (TestClaudeCLIStandIn not_json), as does a failed run.
func TestClaudeCLIRawStdout(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	script := "#!/bin/sh\ncat >/dev/null\nprintf '%s' \"$OUT\"\nexit \"${CODE:-0}\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{"  {not json  \n\n", "  {not json  "},
		{"", ""},
		{"{\"type\":\"other\"}\n", ""},
		{"warn\n{\"type\":\"other\"}\nplain\n", "warn\nplain"},
	} {
		tr, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Injected: true, Env: map[string]string{"OUT": c.out}},
			BuildContext{StoryDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		req := referenceRequest()
		req.Verb = "ask" // a decide reads only a submitted or fenced answer (TestClaudeDefaultDecide)
		resp := askOK(t, tr.(*claudeCLITransport), req)
		tr.Close()
		if resp.Reply == nil || resp.Reply.Text != c.want || resp.Reply.Submitted {
			t.Fatalf("%q: reply %+v, want the text %q", c.out, resp.Reply, c.want)
		}
		var got string
		if err := json.Unmarshal(resp.Submission, &got); err != nil && string(resp.Submission) != c.want {
			t.Fatalf("%q: submission %s", c.out, resp.Submission)
		} else if err == nil && got != c.want {
			t.Fatalf("%q: reply %q, want %q", c.out, got, c.want)
		}
	}
	tr, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Injected: true, Env: map[string]string{"OUT": "oops", "CODE": "3"}},
		BuildContext{StoryDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	askKind(t, tr.(*claudeCLITransport), context.Background(), referenceRequest(), KindPluginCrash)
}

// TestClaudeDefaultDecide: a decide on the injected default agent.claude
// (upstream's default verb path) reads its answer from the first ```json
// block, else the first ``` block, never from bare JSON; with none, the
// call fails schema_invalid carrying the reply, which pkg/compose turns
// into upstream's validator failure (conformance decide-default-validator).
// A declared builtin.claude_cli alias still reads bare JSON.
func TestClaudeDefaultDecide(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	script := "#!/bin/sh\ncat >/dev/null\nprintf '{\"type\":\"result\",\"subtype\":\"success\",\"result\":%s,\"session_id\":\"s-1\"}\\n' \"$OUT\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{`"Here:\n` + "```json" + `\n{\"d\":1}\n` + "```" + `\n\n"`, `{"d":1}`},
		{`"` + "```" + `\n{\"d\":2}\n` + "```" + `\n` + "```json" + ` {\"d\":3} ` + "```" + `"`, `{"d":3}`},
		{`"x ` + "```" + ` {\"d\":4}` + "```" + `"`, `{"d":4}`},
		{`"{\"d\":5}"`, ""},
		{`"` + "```json" + `\n{\"d\":6}"`, ""},
	} {
		tr, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Injected: true, Env: map[string]string{"OUT": c.out}},
			BuildContext{StoryDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := tr.Ask(context.Background(), referenceRequest())
		tr.Close()
		if c.want == "" {
			var ae *AskError
			if !errors.As(err, &ae) || ae.Kind != KindSchemaInvalid || ae.Reply == nil || ae.Reply.SessionID != "s-1" {
				t.Errorf("%s: got %v, %v; want schema_invalid carrying the reply", c.out, resp, err)
			}
			continue
		}
		if err != nil || string(resp.Submission) != c.want || resp.Reply == nil || !resp.Reply.Submitted || strings.HasSuffix(resp.Reply.Text, "\n") {
			t.Errorf("%s: got %v, %v; want the submission %s and the reply", c.out, resp, err, c.want)
		}
	}
	// a run that fails with no envelope is a reply with no answer too, its
	// exit code kept (gen seed 1450001 story 024: upstream's data
	// exit_code 1, ok false)
	crash := filepath.Join(dir, "crash")
	if err := os.WriteFile(crash, []byte("#!/bin/sh\ncat >/dev/null\necho failed >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ct, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: crash, Injected: true}, BuildContext{StoryDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ct.Ask(context.Background(), referenceRequest())
	ct.Close()
	if ae := (*AskError)(nil); !errors.As(err, &ae) || ae.Reply == nil || ae.Reply.ExitCode != 3 || ae.Reply.Text != "" {
		t.Errorf("a failed run: %v; want an error carrying the reply with exit code 3", err)
	}
	tr, err := newClaudeCLITransport(&story.AgentPlugin{Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Env: map[string]string{"OUT": `"{\"d\":5}"`}},
		BuildContext{StoryDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if resp := askOK(t, tr.(*claudeCLITransport), referenceRequest()); string(resp.Submission) != `{"d":5}` || resp.Reply != nil {
		t.Errorf("declared alias: submission %s, reply %+v", resp.Submission, resp.Reply)
	}
}
