package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

// agent_probe is a corpus story (unchanged) with its recorded host cassette.
func TestHostCassetteReplaysAgentProbe(t *testing.T) {
	hc, err := LoadHostCassette(filepath.Join("testdata", "agent_probe", "flows", "who_are_you.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	st := loadStory(t, "agent_probe")
	m, err := Compile(st, CompileOptions{HostCassette: hc})
	if err != nil {
		t.Fatal(err)
	}
	q := Input{Intent: "ask", Slots: map[string]any{"question": "who are you"}}
	sink := &recSink{}
	res := Run(t.Context(), m, Options{HostCassette: hc, Sink: sink, Inputs: []Input{q, q, q}})
	wantOutcome(t, res, OutcomeRested, "probe")
	if res.World["reply"] != "I am Codex (GPT-5, OpenAI), reachable." {
		t.Errorf("reply = %v", res.World["reply"])
	}
	starts := sink.kinds(agent.EventCallStart)
	if len(starts) != 3 {
		t.Fatalf("%d agent.call.start", len(starts))
	}
	if starts[0].EpisodeID != "who_are_you_1" || starts[0].CallID != agent.CassetteCallID("agent-probe", "who_are_you_1", 0) || starts[0].Turn != 1 {
		t.Errorf("start[0] = %+v", starts[0])
	}
	if n := len(sink.kinds(agent.EventCallComplete)); n != 3 {
		t.Errorf("%d completes", n)
	}
	// a fourth question misses: the error names the handler and the episodes
	res = Run(t.Context(), m, Options{HostCassette: hc, Inputs: []Input{q}})
	if res.World["last_error"] == nil || !strings.Contains(res.World["last_error"].(string), "cassette miss") {
		t.Errorf("after exhausting the cassette: last_error = %v", res.World["last_error"])
	}
}

func TestParseHostCassetteErrors(t *testing.T) {
	cases := map[string]string{
		"kind: nope\n": `kind must be "host_cassette"`,
		"kind: host_cassette\nrecord_mode: all\n":                    `record_mode "all" is not supported`,
		"kind: host_cassette\nphase_from: '('\n":                     "phase_from regex",
		"kind: host_cassette\nepisodes:\n  - id: x\n    match: {}\n": "match.handler is required",
		"kind: [\n": "cassette:",
		"kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: host.run}\n    delay: -1s\n": `episode "x": delay: invalid duration "-1s": must not be negative`,
	}
	for src, want := range cases {
		if _, err := ParseHostCassette("c.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
}

// A host cassette's delay reads like the agent cassette's and timeout.after
// (internal/duration): whole days included.
func TestParseHostCassetteDelayDays(t *testing.T) {
	hc, err := ParseHostCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: host.run}\n    delay: 2d\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hc.episodes) != 1 || hc.episodes[0].Delay != "2d" {
		t.Fatalf("episodes = %+v", hc.episodes)
	}
}

func FuzzParseHostCassette(f *testing.F) {
	f.Add([]byte("kind: host_cassette\nepisodes:\n  - id: a\n    match: { handler: host.run, call: x }\n    response: { data: { ok: true } }\n"))
	f.Add([]byte("kind: host_cassette\nphase_from: '^(\\w+)'\nepisodes: [{id: b, match: {handler: host.agent.ask}, agent: {verb: ask, response: '{\"a\":1}'}}]\n"))
	f.Add([]byte("kind: host_cassette\nepisodes: [~]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		hc, err := ParseHostCassette("f.yaml", data)
		if err != nil {
			return
		}
		for _, h := range hc.Handlers() {
			_, _, _ = hc.match(h, "s.t", map[string]any{"schema": "schemas/x.json"})
		}
	})
}

// conflict-resolve is a corpus story; its happy path (flows/happy_resolve)
// replayed from a host cassette must end at @exit:resolved, exercising
// once:, post-bind emit_intent, re-rendered with: and bind paths into
// stdout_json.
func TestCorpusConflictResolveHappyPath(t *testing.T) {
	hc, err := LoadHostCassette(filepath.Join("testdata", "conflict-resolve", "flows", "happy_resolve.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(loadStory(t, "conflict-resolve"), CompileOptions{HostCassette: hc})
	if err != nil {
		t.Fatal(err)
	}
	w, err := InitWorld(m.World, nil, []string{"current_branch=fix/x", "integration_branch=main", "working_dir=.", "auto_escalate=true"})
	if err != nil {
		t.Fatal(err)
	}
	sink := &recSink{}
	res := Run(t.Context(), m, Options{HostCassette: hc, World: w, Sink: sink, Inputs: []Input{{Intent: "begin"}}})
	wantOutcome(t, res, OutcomeExit, "__exit__resolved")
	if res.World["rebase_done"] != true || res.World["last_op_ok"] != true {
		t.Errorf("world = %v", res.World)
	}
	if n := len(sink.kinds(KindHarnessCalled)); n != 4 {
		t.Errorf("%d host calls, want 4 (gather, resolve, continue, build)", n)
	}
}
