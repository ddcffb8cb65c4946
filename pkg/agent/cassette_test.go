package agent_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/refusal"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

func TestCassetteReferenceThroughDispatch(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	cas := fx.WriteCassette(t, "ref.cassette.yaml", agenttest.ReferenceCassetteYAML)
	if err := fx.Registry.Register(agenttest.ReferenceAlias, cas.For(agenttest.ReferenceAlias)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range 4 {
		fx.Sink.Reset()
		res, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Submission) != agenttest.ReferenceSubmission {
			t.Fatalf("submission %s", res.Submission)
		}
		want := agentcall.CassetteID("conformance", "echo_ref", i)
		if res.CallID != want || res.EpisodeID != "echo_ref" || res.MatchIdx != i {
			t.Fatalf("call %d: id=%s ep=%s idx=%d, want id %s", i, res.CallID, res.EpisodeID, res.MatchIdx, want)
		}
		if res.Meta["transport"] != "cassette" || res.Meta["episode_id"] != "echo_ref" || res.Meta["match_idx"] != i || res.Meta["call_id"] != want {
			t.Fatalf("meta %v", res.Meta)
		}
		if seen[res.CallID] {
			t.Fatal("replay: any must give distinct call ids")
		}
		seen[res.CallID] = true
		start := fx.Sink.Events()[0]
		if start.EpisodeID != "echo_ref" || start.MatchIdx != i || start.CallID != want {
			t.Fatalf("start event %+v", start)
		}
		if m := agenttest.PayloadMap(fx.Sink.Events()[1]); m["model"] != "cassette-model" {
			t.Fatalf("complete model %v", m["model"])
		}
	}
}

const matchingCassette = `kind: host_cassette
app_id: bugfix
phase_from: '^pipeline\.(\w+)'
episodes:
  - id: once
    match: {handler: agent.fixer, verb: task}
    agent:
      verb: task
      response: '{"files_changed": ["main.go"], "result": "fixed"}'
  - id: by_phase
    match: {handler: agent.fixer, phase: review, schema_name: verdict.json}
    agent:
      response: '{"verdict":"go"}'
      prompt_tokens: 10
      response_tokens: 5
      cost_usd: 0.25
      transcript:
        format: openai-chat
        events:
          - '{"type":"request", "n": 1}'
          - {type: result}
        timings: [0, 12]
  - id: host_path
    match: {handler: host.agent.ask, call: identify}
    response:
      data: {ok: true, stdout: "I am Claude"}
    agent:
      verb: ask
      response: "I am Claude"
  - id: by_arg
    match: {handler: agent.fixer, n: 1}
    response:
      data: {n: 1.0}
  - id: broken
    match: {handler: agent.broken}
    agent:
      error: "model refused"
  - id: infra
    match: {handler: agent.infra}
    response:
      infra_error: "connection reset"
  - id: slow
    match: {handler: agent.slow}
    delay: 10s
    agent:
      response: '{}'
`

func TestCassetteMatching(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(p, []byte(matchingCassette), 0o644); err != nil {
		t.Fatal(err)
	}
	cas, err := agent.LoadCassette(p)
	if err != nil {
		t.Fatal(err)
	}
	fixer := cas.For("agent.fixer")
	ctx := context.Background()
	ask := func(tr agent.Transport, req *agent.AskRequest) (*agent.AskResponse, error) { return tr.Ask(ctx, req) }

	r, err := ask(fixer, &agent.AskRequest{Verb: "task", StatePath: "pipeline.fix"})
	if err != nil || string(r.Submission) != `{"files_changed": ["main.go"], "result": "fixed"}` || r.Meta["episode_id"] != "once" {
		t.Fatalf("once: %v %+v", err, r)
	}
	// Played once: the next identical call misses, naming the request.
	_, err = ask(fixer, &agent.AskRequest{Verb: "task", StatePath: "pipeline.fix", With: map[string]any{"k": "v"}})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "cassette miss") ||
		!strings.Contains(err.Error(), `handler="agent.fixer"`) || !strings.Contains(err.Error(), `k:"v"`) ||
		!strings.Contains(err.Error(), "pipeline.fix") || !strings.Contains(err.Error(), "[once by_phase host_path by_arg broken infra slow]") {
		t.Fatalf("miss: %v", err)
	}
	// phase_from capture group and schema_name base name.
	r, err = ask(fixer, &agent.AskRequest{Verb: "decide", StatePath: "pipeline.review.inner", With: map[string]any{"schema": "schemas/sub/verdict.json"}})
	if err != nil || string(r.Submission) != `{"verdict":"go"}` {
		t.Fatalf("by_phase: %v %+v", err, r)
	}
	checkRecordedMeta(t, r)
	// host.agent.<verb> handler + call key; a non-JSON response becomes a JSON string.
	r, err = ask(cas.For("agent.claude"), &agent.AskRequest{Verb: "ask", With: map[string]any{"call": "identify"}})
	if err != nil || string(r.Submission) != `"I am Claude"` {
		t.Fatalf("host_path: %v %+v", err, r)
	}
	if d, _ := r.Meta["response_data"].(map[string]any); d["stdout"] != "I am Claude" {
		t.Fatalf("response_data %v", r.Meta["response_data"])
	}
	// Numbers compare JSON-normalised (1 == 1.0); non-agent episodes answer response.data.
	r, err = ask(fixer, &agent.AskRequest{Verb: "x", With: map[string]any{"n": 1.0}})
	if err != nil || string(r.Submission) != `{"n":1}` {
		t.Fatalf("by_arg: %v %+v", err, r)
	}
	if _, err := ask(cas.For("agent.broken"), &agent.AskRequest{}); agent.KindOf(err) != agent.KindPluginCrash || !strings.Contains(err.Error(), "model refused") {
		t.Fatalf("agent.error: %v", err)
	}
	if _, err := ask(cas.For("agent.infra"), &agent.AskRequest{}); agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("infra_error: %v", err)
	}
	// delay honours ctx.
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := cas.For("agent.slow").Ask(cctx, &agent.AskRequest{}); agent.KindOf(err) != agent.KindDeadlineExceeded {
		t.Fatalf("delay: %v", err)
	}
	if rem := cas.Remaining(); strings.Join(rem, ",") != "" {
		t.Fatalf("remaining %v", rem)
	}
}

// checkRecordedMeta checks that an episode's usage, cost and transcript
// come back as recorded.
func checkRecordedMeta(t *testing.T, r *agent.AskResponse) {
	t.Helper()
	if u, _ := r.Meta["usage"].(map[string]any); u["input_tokens"] != int64(10) || u["output_tokens"] != int64(5) || r.Meta["cost_usd"] != 0.25 {
		t.Fatalf("meta %v", r.Meta)
	}
	if r.Transcript == nil || r.Transcript.Format != "openai-chat" || string(r.Transcript.Events[0]) != `{"type":"request", "n": 1}` ||
		string(r.Transcript.Events[1]) != `{"type":"result"}` || len(r.Transcript.Timings) != 2 {
		t.Fatalf("transcript %+v", r.Transcript)
	}
}

func TestCassetteForEveryAlias(t *testing.T) {
	cas, err := agent.ParseCassette(filepath.Join(t.TempDir(), "c.yaml"), []byte(matchingCassette))
	if err != nil {
		t.Fatal(err)
	}
	plugins := map[string]*story.AgentPlugin{
		"agent.fixer": {Alias: "agent.fixer", Plugin: story.PluginSubprocess, Command: "/nonexistent/never-started"},
	}
	fx := agenttest.NewFixture(t, plugins, agent.RegistryOptions{Cassette: cas, AppID: "ignored"})
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.fixer", Verb: "task", StatePath: "pipeline.fix"})
	if err != nil {
		t.Fatal(err)
	}
	if res.CallID != agentcall.CassetteID("bugfix", "once", 0) {
		t.Fatalf("cassette call id %s", res.CallID)
	}
	// agent.claude (injected) replays too; an undeclared alias is still an error.
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Verb: "ask", With: map[string]any{"call": "identify"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.slow", Verb: "ask"}); err == nil {
		t.Fatal("undeclared alias must not resolve")
	}
	// A miss through Dispatch: start + error, live call id.
	fx.Sink.Reset()
	_, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.fixer", Verb: "task", StatePath: "pipeline.fix"})
	if agent.KindOf(err) != agent.KindTransportError || strings.Join(fx.Sink.Kinds(), ",") != "agent.call.start,agent.call.error" {
		t.Fatalf("miss: %v %v", err, fx.Sink.Kinds())
	}
}

func TestCassetteLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "resp.json"), []byte("{\n  \"a\": 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompt.txt"), []byte("say \"hi\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.json")
	_ = os.WriteFile(outside, []byte(`{}`), 0o644)
	_ = os.Symlink(outside, filepath.Join(dir, "link.json"))
	cases := map[string]string{
		"kind: flow\n": `kind must be "host_cassette", got "flow"`,
		"kind: host_cassette\nrecord_mode: all\n": `record_mode "all" is not supported; valid values are "none" or "new_episodes"`,
		"kind: host_cassette\nphase_from: '('\n":  "phase_from regex:",
		"kind: host_cassette\nepisodes:\n  - id: t\n    agent:\n      transcript:\n        events: ['{nope']\n": `episode "t": transcript event[0] is not valid JSON`,
		"kind: host_cassette\nepisodes:\n  - id: i\n    agent:\n      response: !include /etc/passwd\n":         "absolute paths are not allowed",
		"kind: host_cassette\nepisodes:\n  - id: i\n    agent:\n      response: !include ../x.json\n":           "!include",
		"kind: host_cassette\nepisodes:\n  - id: i\n    agent:\n      response: !include link.json\n":           "outside the cassette directory",
		"kind: [\n": "cassette:",
	}
	for src, want := range cases {
		_, err := agent.ParseCassette(filepath.Join(dir, "c.yaml"), []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
	ok := "kind: host_cassette\nepisodes:\n  - id: i\n    match: {handler: agent.x}\n    agent:\n      response: !include resp.json\n      prompt: !include prompt.txt\n"
	cas, err := agent.ParseCassette(filepath.Join(dir, "c.yaml"), []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if a := cas.Episodes[0].Agent; a.Response != `{"a":1}` || a.Prompt != "say \"hi\"\n" {
		t.Fatalf("include: %q %q", a.Response, a.Prompt)
	}
}

func TestCorpusCassetteLoads(t *testing.T) {
	p := filepath.Join(storytest.Corpus(t, "agent_probe"), "flows", "who_are_you.cassette.yaml")
	cas, err := agent.LoadCassette(p)
	if err != nil {
		t.Fatal(err)
	}
	if cas.AppID != "agent-probe" || len(cas.Episodes) != 3 || cas.Episodes[2].Agent.DurationMS != 810 {
		t.Fatalf("%+v", cas)
	}
	tr := cas.For("agent.claude")
	for i, want := range []string{`"I am Claude (Anthropic), reachable."`, `"I am GLM-5.1, served via synthetic.new, reachable."`, `"I am Codex (GPT-5, OpenAI), reachable."`} {
		r, err := tr.Ask(context.Background(), &agent.AskRequest{Verb: "ask"})
		if err != nil || string(r.Submission) != want {
			t.Fatalf("episode %d: %v %+v", i, err, r)
		}
	}
}

// FuzzParseCassette: any cassette bytes: a refusal names the file on one
// line without a Go type; a cassette read replays without a panic.
func FuzzParseCassette(f *testing.F) {
	f.Add([]byte(matchingCassette))
	f.Add([]byte(agenttest.ReferenceCassetteYAML))
	f.Add([]byte("kind: host_cassette\nepisodes:\n  - id: x\n    agent:\n      transcript: {events: [1, '{}', {a: [b]}]}\n"))
	f.Add([]byte("kind: host_cassette\nepisodes:\n  - response: !include x.json\n"))
	f.Add([]byte("kind: host_cassette\nepisodes: [null, {delay: 3d}]\n"))
	// episodes merging one list: the repeated-key search checks it once
	f.Add([]byte("kind: host_cassette\nx: &L [{id: a}, {delay: 1s}]\nepisodes: [{<<: *L}, {<<: *L, response: {}}, {<<: [*L, {id: b}]}]\n"))
	f.Add([]byte("kind: host_cassette\nepisodes:\n  - agent: {input: 1, transcript: 4}\n"))
	f.Add([]byte("kind: host_cassette\nepisodes: [x]\nmatch_on: 5\n"))
	dir := f.TempDir()
	name := filepath.Join(dir, "c.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cas, err := agent.ParseCassette(name, data)
		if err != nil {
			// a refusal names the file, on one line, in YAML's terms
			msg := err.Error()
			refusal.Names(t, data, msg, name)
			if strings.Contains(msg, "agent.raw") && !bytes.Contains(data, []byte("agent.raw")) {
				t.Fatalf("%q: %q names a Go type (agent.raw)", data, msg)
			}
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // delays return at once
		req := &agent.AskRequest{Verb: "ask", StatePath: "a.b", With: map[string]any{"schema": "s/x.json"}}
		_, _ = cas.For("agent.x").Ask(ctx, req)
		_, _ = cas.For("agent.x").Ask(ctx, &agent.AskRequest{Verb: "decide"})
	})
}

// Concurrent replays of one replay: any episode each keep the match_idx
// their call id was derived from.
func TestCassetteConcurrentReplayKeepsIdentity(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	cas := fx.WriteCassette(t, "ref.cassette.yaml", agenttest.ReferenceCassetteYAML)
	_ = fx.Registry.Register(agenttest.ReferenceAlias, cas.For(agenttest.ReferenceAlias))
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int]string{}
	for range 4 {
		wg.Go(func() {
			for range 25 {
				res, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
				if err != nil {
					t.Error(err)
					return
				}
				if res.Meta["match_idx"] != res.MatchIdx || res.Meta["call_id"] != res.CallID ||
					res.CallID != agentcall.CassetteID("conformance", "echo_ref", res.MatchIdx) {
					t.Errorf("identity mixed up: %+v", res)
				}
				mu.Lock()
				if prev, dup := seen[res.MatchIdx]; dup {
					t.Errorf("match_idx %d twice (%s)", res.MatchIdx, prev)
				}
				seen[res.MatchIdx] = res.CallID
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != 100 {
		t.Fatalf("%d distinct matches", len(seen))
	}
}
