package compose

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/testing/refusal"
	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// parseHostCassette is parseHostCassetteIn with a budget of its own.
func parseHostCassette(name string, data []byte, flow bool) (*HostCassette, error) {
	return parseHostCassetteIn(name, data, flow, nil)
}

// cassetteStory compiles pkg/engine's testdata/<name> with hc answering
// the calls it has episodes for.
func cassetteStory(t *testing.T, name string, hc *HostCassette) *engine.Machine {
	t.Helper()
	st := storyload.Load(t, filepath.Join("..", "engine", "testdata", name), story.Options{})
	m, err := engine.Compile(st, engine.CompileOptions{HostReplay: hc})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func runCassette(t *testing.T, m *engine.Machine, o engine.Options) *engine.Result {
	t.Helper()
	return engine.RunSession(t.Context(), m, engine.SessionOptions{Options: o, Bootstrap: true})
}

// agent_probe is a corpus story (unchanged) with its recorded host cassette.
func TestHostCassetteReplaysAgentProbe(t *testing.T) {
	hc, err := LoadHostCassette(filepath.Join("..", "engine", "testdata", "agent_probe", "flows", "who_are_you.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := cassetteStory(t, "agent_probe", hc)
	q := engine.Input{Intent: "ask", Slots: map[string]any{"question": "who are you"}}
	sink := &eventLog{}
	res := runCassette(t, m, engine.Options{HostReplay: hc, Sink: sink, Inputs: []engine.Input{q, q, q}})
	if res.Outcome != engine.OutcomeRested || res.State != "probe" {
		t.Fatalf("outcome %s at %q (err %v), want rested at probe", res.Outcome, res.State, res.Err)
	}
	if res.World["reply"] != "I am Codex (GPT-5, OpenAI), reachable." {
		t.Errorf("reply = %v", res.World["reply"])
	}
	starts := sink.kinds(agent.EventCallStart)
	if len(starts) != 3 {
		t.Fatalf("%d agent.call.start", len(starts))
	}
	if starts[0].EpisodeID != "who_are_you_1" || starts[0].CallID != agentcall.CassetteID("agent-probe", "who_are_you_1", 0) || starts[0].Turn != 1 {
		t.Errorf("start[0] = %+v", starts[0])
	}
	if n := len(sink.kinds(agent.EventCallComplete)); n != 3 {
		t.Errorf("%d completes", n)
	}
	if left := hc.Remaining(); len(left) != 0 {
		t.Errorf("episodes left unplayed: %v", left)
	}
	// a fourth question misses: the error names the handler and the episodes
	res = runCassette(t, m, engine.Options{HostReplay: hc, Inputs: []engine.Input{q}})
	if res.World["last_error"] == nil || !strings.Contains(res.World["last_error"].(string), "cassette miss") {
		t.Errorf("after exhausting the cassette: last_error = %v", res.World["last_error"])
	}
}

// conflict-resolve is a corpus story; its happy path (flows/happy_resolve)
// replayed from a host cassette must end at @exit:resolved, exercising
// once:, post-bind emit_intent, re-rendered with: and bind paths into
// stdout_json.
func TestCorpusConflictResolveHappyPath(t *testing.T) {
	hc, err := LoadHostCassette(filepath.Join("..", "engine", "testdata", "conflict-resolve", "flows", "happy_resolve.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := cassetteStory(t, "conflict-resolve", hc)
	w, err := engine.InitWorld(m.World, nil, []string{"current_branch=fix/x", "integration_branch=main", "working_dir=.", "auto_escalate=true"})
	if err != nil {
		t.Fatal(err)
	}
	sink := &eventLog{}
	res := runCassette(t, m, engine.Options{HostReplay: hc, World: w, Sink: sink, Inputs: []engine.Input{{Intent: "begin"}}})
	if res.Outcome != engine.OutcomeExit || res.State != "__exit__resolved" {
		t.Fatalf("outcome %s at %q (err %v), want the exit resolved", res.Outcome, res.State, res.Err)
	}
	if res.World["rebase_done"] != true || res.World["last_op_ok"] != true {
		t.Errorf("world = %v", res.World)
	}
	if n := len(sink.kinds(engine.KindHarnessCalled)); n != 4 {
		t.Errorf("%d host calls, want 4 (gather, resolve, continue, build)", n)
	}
}

// A nil cassette (no --host-cassette) handles nothing.
func TestNilHostCassetteHandlesNothing(t *testing.T) {
	var hc *HostCassette
	if hc.Handles("host.run") || hc.Remaining() != nil {
		t.Fatal("a nil cassette must handle nothing")
	}
}

func TestParseHostCassetteErrors(t *testing.T) {
	cases := map[string]string{
		"kind: nope\n": `kind must be "host_cassette"`,
		"kind: host_cassette\nrecord_mode: all\n":                                                         `record_mode "all" is not supported`,
		"kind: host_cassette\nrecord_mode: new_episodes\n":                                                "recording is not supported here",
		"kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: h}\n    response: {data: [1]}\n": "c.yaml:5:22: episodes[0].response.data: expected a mapping, got a list",
		"kind: host_cassette\nphase_from: '('\n":                                                          "phase_from regex",
		"kind: host_cassette\nepisodes:\n  - id: x\n    match: {}\n":                                      "match.handler is required",
		"kind: [\n": "cassette:",
	}
	for src, want := range cases {
		if _, err := parseHostCassette("c.yaml", []byte(src), false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
}

// A host cassette's delay reads like the agent cassette's and timeout.after
// (internal/duration): whole days included.
func TestParseHostCassetteDelayDays(t *testing.T) {
	hc, err := parseHostCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: host.run}\n    delay: 2d\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(hc.c.Episodes) != 1 || hc.c.Episodes[0].Delay != 48*time.Hour {
		t.Fatalf("episodes = %+v", hc.c.Episodes)
	}
}

// A delay that is no duration (a bare number, text, a negative one) is no
// delay, as upstream plays it; a list is still refused (conformance
// cassette-delay-unparsed).
func TestParseHostCassetteDelayUnparsed(t *testing.T) {
	for _, d := range []string{"2", "5000000000", "soon", "-1s", `""`, "1x"} {
		hc, err := parseHostCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: host.run}\n    delay: "+d+"\n"), true)
		if err != nil || hc.c.Episodes[0].Delay != 0 {
			t.Errorf("delay %s: %v, %+v; want no delay", d, err, hc)
		}
	}
	if _, err := parseHostCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: x\n    match: {handler: host.run}\n    delay: [1]\n"), true); err == nil {
		t.Error("delay [1] loaded")
	}
}

func TestLoadHostCassetteReadErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"nosuch": "nosuch: no such file", "adir": "adir: is a directory"} {
		if _, err := LoadHostCassette(path); err == nil || err.Error() != want {
			t.Errorf("LoadHostCassette(%q) = %v, want %q", path, err, want)
		}
	}
}

// FuzzParseHostCassette: any host cassette bytes: a refusal names the
// file on one line without a Go type; a cassette taken serves each handler
// its episodes name, and its matching never panics.
func FuzzParseHostCassette(f *testing.F) {
	f.Add([]byte("kind: host_cassette\nepisodes:\n  - id: a\n    match: { handler: host.run, call: x }\n    response: { data: { ok: true } }\n"))
	f.Add([]byte("kind: host_cassette\nphase_from: '^(\\w+)'\nepisodes: [{id: b, match: {handler: host.agent.ask}, agent: {verb: ask, response: '{\"a\":1}'}}]\n"))
	f.Add([]byte("kind: host_cassette\nepisodes: [~]\n"))
	f.Add([]byte("kind: host_cassette\nepisodes: [{id: \"a\\nb\", match: {handler: [x]}}]\n"))
	f.Add([]byte("kind: host_cassette\nrecord_mode: new_episodes\nepisodes: [{match: {handler: host.x}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		hc, err := parseHostCassette("f.yaml", data, false)
		if err != nil {
			refusal.Names(t, data, err.Error(), "f.yaml")
			return
		}
		for h := range hc.handlers {
			if !hc.Handles(h) {
				t.Fatalf("%q: handler %q named but not served", data, h)
			}
			_, _, _ = hc.match(h, "s.t", map[string]any{"schema": "schemas/x.json"})
		}
	})
}
