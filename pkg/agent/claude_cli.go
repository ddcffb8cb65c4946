package agent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/proc"
	"kitsoki/pkg/story"
)

// The builtin.claude_cli transport runs `claude -p --output-format json
// [--model=M] [--system-prompt=P]` once per Ask, with the prompt (and, with a
// schema, the answer instructions and the schema) on stdin, in the story
// directory, in its own process group killed when the call ends. The binary
// (claude_bin: or `claude` on PATH) is looked up at call time so a story that
// never calls agent.claude runs without it; it gets kitsoki's whole
// environment because it needs the user's claude credentials. The submission
// is the envelope's structured_output, else its result text with a Markdown
// fence stripped. Behaviour per item: docs/compat/agent-contract.md §4.

// claudeInstallHint ends the missing-binary error.
const claudeInstallHint = "install Claude Code (npm install -g @anthropic-ai/claude-code, see https://docs.anthropic.com/en/docs/claude-code) so `claude` is on PATH, " +
	"set claude_bin: to its path, or declare this alias with another plugin (builtin.local_llm for a local model, subprocess or mcp_http for your own agent)"

type claudeCLITransport struct {
	alias  string
	bin    string // claude_bin:, resolved against the story dir; "" = PATH
	model  string
	env    map[string]string
	dir    string
	log    *slog.Logger
	redact func(string) string
	cut    func(s string, n int) int // where a long stderr line may be split
	submit []string                  // kitsoki's submit server command (claude_submit.go); nil = plain text only
	// rawOK: the injected default alias (upstream's default verb path),
	// whose clean run without a result envelope replies with its stdout
	rawOK bool

	sweepSubmit sync.Once // the first submit call sweeps what killed runs left

	mu      sync.Mutex
	running map[*proc.Process]struct{}
	closed  bool
}

// newClaudeCLITransport is the Builder for plugin: builtin.claude_cli.
// It never fails: a missing binary is reported when the alias is called.
func newClaudeCLITransport(p *story.AgentPlugin, bc BuildContext) (Transport, error) {
	return &claudeCLITransport{
		alias: p.Alias, bin: bc.storyPath(p.ClaudeBin), model: p.Model, env: maps.Clone(p.Env), dir: bc.StoryDir,
		log: bc.Logger, redact: bc.Mask, cut: bc.cut, submit: bc.ClaudeSubmit, rawOK: p.Injected,
		running: map[*proc.Process]struct{}{},
	}, nil
}

func (t *claudeCLITransport) errf(kind Kind, format string, args ...any) *AskError {
	return pluginError(t.redact, "builtin.claude_cli "+t.alias, kind, format, args...)
}

// binary finds the claude executable.
func (t *claudeCLITransport) binary() (string, *AskError) {
	p, err := exec.LookPath(cmp.Or(t.bin, "claude"))
	switch {
	case err == nil:
		return p, nil
	case t.bin != "":
		return "", t.errf(KindTransportError, "claude_bin: %q cannot be run (%v); fix the path, or %s", t.bin, err, claudeInstallHint)
	}
	e := t.errf(KindTransportError, "the claude binary was not found on PATH; %s", claudeInstallHint)
	e.Underlying = ErrNoClaude
	return "", e
}

// ErrNoClaude is under the AskError of a builtin.claude_cli call when no
// claude is on PATH (and no claude_bin: is set), so that a caller may word
// it its own way (kitsoki test words it as upstream's flow rig does).
var ErrNoClaude = errors.New("the claude binary was not found on PATH")

// hasSchema reports whether the call carries a schema.
func hasSchema(req *AskRequest) bool {
	return len(req.Schema) > 0 && string(req.Schema) != "null"
}

// claudePrompt is what the CLI reads on stdin. fenced: the answer is read
// from a ```json block (a decide on the default verb path, which never
// reads bare JSON).
func claudePrompt(req *AskRequest, fenced bool) []byte {
	var b bytes.Buffer
	b.WriteString(req.Prompt)
	if hasSchema(req) {
		how := "and nothing else (no prose, no code fence)"
		if fenced {
			how = "in a ```json code block"
		}
		b.WriteString("\n\nAnswer with exactly one JSON value " + how + ". It must satisfy this JSON Schema:\n")
		b.Write(req.Schema)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// callExtrasKey carries what the wire request has no field for: the
// persona's model (winning over model:) and system prompt.
type callExtrasKey struct{}

type callExtras struct {
	model        string
	systemPrompt string
	inherit      bool // inherit_claude_default: append to the CLI's own prompt
}

// withCall returns ctx carrying x for this call.
func withCall(ctx context.Context, x callExtras) context.Context {
	return context.WithValue(ctx, callExtrasKey{}, x)
}

// modelFor is the model of this call: the persona's, else model:.
func (t *claudeCLITransport) modelFor(ctx context.Context) string {
	x, _ := ctx.Value(callExtrasKey{}).(callExtras)
	return cmp.Or(x.model, t.model)
}

// claudeArgs is the CLI's argv after the program name: the persona's
// system prompt goes in --system-prompt (--append-system-prompt with
// inherit_claude_default), as upstream's default verb path does. The
// story's text (model, system prompt) is joined to its flag with "=", one
// argument, so no option parser can take text starting with "-" for an
// option of its own (a system prompt of "--dangerously-skip-permissions").
func claudeArgs(ctx context.Context, model string) []string {
	args := []string{"-p", "--output-format", "json"}
	if model != "" {
		args = append(args, "--model="+model)
	}
	if x, _ := ctx.Value(callExtrasKey{}).(callExtras); x.systemPrompt != "" {
		flag := "--system-prompt"
		if x.inherit {
			flag = "--append-system-prompt"
		}
		args = append(args, flag+"="+x.systemPrompt)
	}
	return args
}

func (t *claudeCLITransport) track(cmd *proc.Process, add bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if add {
		if t.closed {
			return false
		}
		t.running[cmd] = struct{}{}
	} else {
		delete(t.running, cmd)
	}
	return true
}

// Ask runs the CLI once.
func (t *claudeCLITransport) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, t.errf(KindDeadlineExceeded, "the call ended (%v) before claude was started", err)
	}
	bin, aerr := t.binary()
	if aerr != nil {
		return nil, aerr
	}
	model := t.modelFor(ctx)
	sub := t.prepareSubmit(req) // nil: plain-text answer only
	defer sub.cleanup()
	cmd := exec.Command(bin, append(claudeArgs(ctx, model), sub.claudeArgs()...)...)
	cmd.Dir = t.dir
	cmd.Stdin = bytes.NewReader(sub.prompt(claudePrompt(req, t.rawOK && req.Verb == "decide")))
	stdout := proc.NewHead(maxFrameBytes)
	cmd.Stdout = stdout
	tail := childproc.NewStderr(t.log, "agent plugin stderr", []any{"agent", t.alias}, t.redact, t.cut)
	cmd.Stderr = tail
	if t.isClosed() {
		return nil, t.errf(KindTransportError, "the transport is closed (Ask after Close)")
	}
	// kitsoki's whole environment plus env:, killed at once when the call
	// ends (a one-shot call has no state)
	pr, err := proc.Start(context.Background(), cmd, proc.Policy{Env: proc.Env{Policy: proc.EnvInherit, Vars: proc.Set(t.env)}, WaitDelay: time.Second})
	if err != nil {
		return nil, t.errf(KindTransportError, "cannot start %s (%v); %s", bin, err, claudeInstallHint)
	}
	if !t.track(pr, true) {
		pr.Kill()
		return nil, t.errf(KindTransportError, "the transport was closed while claude was starting")
	}
	defer t.track(pr, false)
	var waitErr error
	select {
	case <-pr.Done():
		waitErr = pr.Wait()
	case <-ctx.Done():
		if pr.Exited() { // it answered as the call ended: select picks either, the answer must win
			waitErr = pr.Wait()
			break
		}
		pr.Stop()
		return nil, t.errf(KindDeadlineExceeded, "claude did not answer before the call's deadline (%v); its process group was killed%s", ctx.Err(), claudeStderr(tail))
	}
	pr.Stop() // a one-shot call: what claude left in its group (an MCP server it did not stop) goes with it
	status := "exit status 0"
	if ps := pr.State(); ps != nil {
		status = ps.String()
	}
	if t.isClosed() && waitErr != nil {
		return nil, t.errf(KindTransportError, "the transport was closed while claude was running")
	}
	if stdout.Truncated() {
		return nil, t.errf(KindPluginCrash, "claude wrote more than %d MiB on stdout; %s%s", maxFrameBytes>>20, status, claudeStderr(tail))
	}
	env, err := parseClaudeEnvelope([]byte(stdout.String()))
	if errors.Is(err, errNoEnvelope) && waitErr == nil && t.rawOK {
		// a clean exit with no result envelope: its stdout is the reply,
		// as upstream's default verb path reads it
		env, err = rawReply(stdout.String()), nil
	}
	if err != nil {
		e := t.errf(KindPluginCrash, "claude gave no JSON result envelope on stdout (%v; stdout: %q); %s%s",
			err, childproc.Snippet(t.redact, strings.TrimSpace(stdout.String())), status, claudeStderr(tail))
		if ps := pr.State(); errors.Is(err, errNoEnvelope) && ps != nil && ps.ExitCode() > 0 {
			t.decideReply(e, req, rawReply(stdout.String()), ps.ExitCode())
		}
		return nil, e
	}
	if env.IsError || (env.Subtype != "" && env.Subtype != "success") {
		e := t.errf(KindTransportError, "claude reported an error (%s): %s; %s%s",
			cmp.Or(env.Subtype, "is_error"), childproc.Snippet(t.redact, env.Result), status, claudeStderr(tail))
		t.decideReply(e, req, env, 0)
		return nil, e
	}
	if t.rawOK {
		switch req.Verb {
		case "ask", "converse":
			return defaultPathReply(env, sub, hasSchema(req), model), nil
		case "decide":
			return t.defaultPathDecide(env, sub, model)
		}
	}
	return &AskResponse{
		Submission: sub.or(claudeSubmission(env, hasSchema(req))),
		Meta:       claudeMeta(env, model),
	}, nil
}

// defaultPathReply is the answer of an ask or converse on upstream's
// default verb path (the injected agent.claude): the reply text less its
// trailing newlines (only "\n": a "\r" or a blank before them stays) is
// the verb's result, and the submission is what the submit tool captured,
// else the reply read as claudeSubmission reads it.
func defaultPathReply(env *claudeEnvelope, sub *claudeSubmit, withSchema bool, model string) *AskResponse {
	r := newReply(env, false)
	submission, ok := sub.got()
	if r.Submitted = ok; !ok {
		submission = claudeSubmission(env, withSchema)
	}
	return &AskResponse{Submission: submission, Meta: claudeMeta(env, model), Reply: r}
}

// decideReply gives e, the failure of a run that answered nothing, env's
// reply when the call is a decide on upstream's default verb path, which
// reads such a run (an envelope reporting an error, or a run that exited
// with exitCode and no envelope) as a reply with no answer: its validator
// failure, with the reply's data (pkg/compose decideAbandoned).
func (t *claudeCLITransport) decideReply(e *AskError, req *AskRequest, env *claudeEnvelope, exitCode int) {
	if t.rawOK && req.Verb == "decide" {
		e.Reply = newReply(env, false)
		e.Reply.ExitCode = exitCode
	}
}

// newReply is the Reply of env: its text less trailing newlines, its
// session id, else a fresh one as upstream's.
func newReply(env *claudeEnvelope, submitted bool) *Reply {
	return &Reply{Text: strings.TrimRight(env.Result, "\n"), SessionID: cmp.Or(env.SessionID, agentcall.RandomUUID()), Submitted: submitted}
}

// decideFences are the code blocks upstream's default-path decide
// recovers when the model skips the submit tool, in this order: the first
// ```json block, else the first ``` block (its content then starts after
// the backticks, so ```JSON or ```yaml holds no JSON); closed, on one line
// or several.
var decideFences = []*lazyre.Regexp{{Expr: "(?s)```json\\s*(.*?)```"}, {Expr: "(?s)```\\s*(.*?)```"}}

// decideFenced is the content of the block decideFences find in text.
func decideFenced(text string) (string, bool) {
	for _, re := range decideFences {
		if m := re.FindStringSubmatch(text); m != nil {
			return strings.TrimSpace(m[1]), true
		}
	}
	return "", false
}

// defaultPathDecide is the answer of a decide on upstream's default verb
// path: what the submit tool captured, else the first fenced block of the
// reply (never bare JSON), checked against the schema by Dispatch; with
// neither, the call fails carrying the reply (AskError.Reply).
func (t *claudeCLITransport) defaultPathDecide(env *claudeEnvelope, sub *claudeSubmit, model string) (*AskResponse, error) {
	r := newReply(env, true)
	submission, ok := sub.got()
	if !ok {
		block, found := decideFenced(env.Result)
		if !found {
			e := t.errf(KindSchemaInvalid, "claude neither submitted an answer through the submit tool nor gave one in a ```json code block (reply: %q)", childproc.Snippet(t.redact, env.Result))
			e.Reply = r
			return nil, e
		}
		submission = json.RawMessage(block)
	}
	return &AskResponse{Submission: submission, Meta: claudeMeta(env, model), Reply: r}, nil
}

func (t *claudeCLITransport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

func claudeStderr(tail *childproc.Stderr) string {
	if s := tail.String(); s != "" {
		return "; stderr (last 8 KiB):\n" + s
	}
	return ""
}

// claudeEnvelope is the part of the CLI's `--output-format json` result
// object kitsoki reads. Its counts are read from the raw members by
// [claudeEnvelope.readCounts] (claude_counts.go).
type claudeEnvelope struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsError          bool            `json:"is_error"`
	Result           string          `json:"result"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	SessionID        string          `json:"session_id"`
	TotalCostUSD     *float64        `json:"total_cost_usd"`
	ModelUsage       json.RawMessage `json:"modelUsage"`
	RawNumTurns      json.RawMessage `json:"num_turns"`
	RawDurationMS    json.RawMessage `json:"duration_ms"`
	RawUsage         claudeRawUsage  `json:"usage"`

	NumTurns   int64           `json:"-"`
	DurationMS int64           `json:"-"`
	Usage      agentcall.Usage `json:"-"`
	// SoleModel is modelUsage's member name when it has exactly one
	// (HasSoleModel), read by readCounts.
	SoleModel    string `json:"-"`
	HasSoleModel bool   `json:"-"`
}

// parseClaudeEnvelope finds the result envelope on the CLI's stdout: the
// whole output, or else its last line that is a JSON object of type
// "result" (tolerating warnings printed before it).
func parseClaudeEnvelope(out []byte) (*claudeEnvelope, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return nil, noEnvelope("stdout is empty")
	}
	var env claudeEnvelope
	err := json.Unmarshal(out, &env)
	if err == nil && env.Type == "result" {
		if err := env.readCounts(); err != nil {
			return nil, err
		}
		return &env, nil
	}
	lines := bytes.Split(out, []byte("\n"))
	for i, line := range slices.Backward(lines) {
		l := bytes.TrimSpace(line)
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var e claudeEnvelope
		if json.Unmarshal(l, &e) == nil && e.Type == "result" {
			if err := e.readCounts(); err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			return &e, nil
		}
	}
	if err == nil {
		return nil, noEnvelope(fmt.Sprintf("the JSON on stdout is not a result envelope (type %q)", env.Type))
	}
	return nil, noEnvelope(jsonvalue.Reason(out, err))
}

// noEnvelope is parseClaudeEnvelope's error when stdout holds no result
// envelope (as opposed to one whose counts cannot be read): it matches
// errNoEnvelope.
type noEnvelope string

func (e noEnvelope) Error() string { return string(e) }

func (e noEnvelope) Is(target error) bool { return target == errNoEnvelope }

var errNoEnvelope = errors.New("no result envelope")

// rawReply is the envelope of a claude run that exited cleanly without
// one: its stdout less the lines that are JSON objects (events, which
// hold no reply) and less trailing newlines is the reply text (an empty
// stdout an empty reply), with no usage or cost (conformance
// claude-raw-stdout).
func rawReply(stdout string) *claudeEnvelope {
	var b strings.Builder
	for _, line := range strings.SplitAfter(stdout, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "{") && json.Valid([]byte(l)) {
			continue
		}
		b.WriteString(line)
	}
	return &claudeEnvelope{Type: "result", Subtype: "success", Result: strings.TrimRight(b.String(), "\r\n")}
}

var fencedBlock = &lazyre.Regexp{Expr: "(?s)```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)```"}

// StripCodeFence returns the JSON answer inside a model's text: the text
// itself when it is JSON, else the content of its first fenced block, else
// the trimmed text. It is the one fence rule of every transport that reads
// a model's text (claude_cli here, builtin.local_llm in pkg/agent/localllm).
func StripCodeFence(text string) string {
	s := strings.TrimSpace(text)
	if json.Valid([]byte(s)) {
		return s
	}
	if m := fencedBlock.FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	if strings.HasPrefix(s, "```") { // an unterminated fence
		if _, after, ok := strings.Cut(s, "\n"); ok {
			return strings.TrimSpace(after)
		}
	}
	return s
}

// claudeSubmission extracts the submission from a successful envelope:
// structured_output when the CLI gave one; with a schema, the reply with
// its code fence removed (decide's recovery of a fenced block); without
// one, the reply as written, JSON when all of it is JSON, else the text.
func claudeSubmission(env *claudeEnvelope, withSchema bool) json.RawMessage {
	if so := bytes.TrimSpace(env.StructuredOutput); len(so) > 0 && string(so) != "null" {
		return json.RawMessage(so)
	}
	if !withSchema {
		if t := strings.TrimSpace(env.Result); json.Valid([]byte(t)) {
			return json.RawMessage(t)
		}
		b, _ := json.Marshal(env.Result)
		return b
	}
	return json.RawMessage(StripCodeFence(env.Result))
}

func claudeMeta(env *claudeEnvelope, model string) map[string]any {
	m := map[string]any{
		"transport": "claude_cli",
		"usage": map[string]any{
			"input_tokens":                env.Usage.InputTokens,
			"output_tokens":               env.Usage.OutputTokens,
			"cache_read_input_tokens":     env.Usage.CacheReadInputTokens,
			"cache_creation_input_tokens": env.Usage.CacheCreationInputTokens,
		},
		"num_turns":   env.NumTurns,
		"duration_ms": env.DurationMS,
	}
	if env.HasSoleModel {
		model = env.SoleModel
	}
	if model != "" {
		m["model"] = model
	}
	if env.TotalCostUSD != nil {
		m["cost_usd"] = *env.TotalCostUSD
	}
	if env.SessionID != "" {
		m["session_id"] = env.SessionID
	}
	return m
}

// Close kills every claude process still running. Idempotent.
func (t *claudeCLITransport) Close() error {
	t.mu.Lock()
	t.closed = true
	cmds := slices.Collect(maps.Keys(t.running))
	t.mu.Unlock()
	for _, c := range cmds {
		c.Stop()
	}
	return nil
}
