package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

// readTrace reads a trace back with the strict reader and returns its
// events; any read-time rule violation fails the test.
func readTrace(t *testing.T, path string) []trace.Event {
	t.Helper()
	r, err := trace.OpenFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Header(); err != nil {
		t.Fatalf("trace header: %v", err)
	}
	var evs []trace.Event
	if err := r.Each(func(ev *trace.Event) { evs = append(evs, *ev) }); err != nil {
		t.Fatalf("trace %s: %v", path, err)
	}
	return evs
}

func countKinds(evs []trace.Event) map[string]int {
	m := map[string]int{}
	for _, e := range evs {
		m[e.Kind]++
	}
	return m
}

// TestRunExamples runs every example end to end through the CLI, reads each
// trace back with the strict reader and checks what it recorded.
func TestRunExamples(t *testing.T) {
	t.Parallel() // in process, each run with its own trace; the examples are only read
	storytest.NeedGo(t)
	ex := filepath.Join("..", "examples")
	cases := []struct {
		name  string
		args  []string
		state string
		kinds map[string]int // minimum counts
	}{
		{"ci-triage", nil, "fix_needed", map[string]int{"harness.called": 2, "agent.call.start": 1, "agent.call.complete": 1, "machine.emit_intent": 2, "machine.say": 2}},
		{"pr-review", []string{"--cassette", filepath.Join(ex, "pr-review", "cassettes", "review.cassette.yaml")}, "__exit__changes_requested",
			map[string]int{"agent.call.start": 2, "agent.call.complete": 2, "machine.state_entered": 4}},
		{"incident-router", nil, "__exit__paged", map[string]int{"agent.call.start": 1, "agent.call.complete": 1}},
		{"incident-router", []string{"--world", "alert=service=search sev 4 latency"}, "__exit__ticketed", map[string]int{"agent.call.complete": 1}},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.state, func(t *testing.T) {
			tr := filepath.Join(t.TempDir(), "run.jsonl")
			var out, errb bytes.Buffer
			args := append([]string{"run", filepath.Join(ex, c.name), "--json", "--trace", tr}, c.args...)
			if code := Run(args, &out, &errb); code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
			}
			var sum map[string]any
			if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
				t.Fatalf("summary is not JSON: %v\n%s", err, out.String())
			}
			if sum["state"] != c.state || sum["trace"] != tr {
				t.Errorf("summary state %v trace %v", sum["state"], sum["trace"])
			}
			for _, k := range []string{"exit", "state", "world", "calls", "trace"} {
				if _, ok := sum[k]; !ok {
					t.Errorf("summary lacks %q", k)
				}
			}
			evs := readTrace(t, tr)
			got := countKinds(evs)
			for k, n := range c.kinds {
				if got[k] < n {
					t.Errorf("trace has %d %s, want at least %d (kinds: %v)", got[k], k, n, got)
				}
			}
			last := evs[len(evs)-1]
			if last.Kind != "machine.state_entered" && last.Kind != "machine.say" {
				t.Errorf("last event %s", last.Kind)
			}
		})
	}
}

func TestRunHumanLog(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "h.jsonl")
	var out, errb bytes.Buffer
	ex := filepath.Join("..", "examples", "pr-review")
	code := Run([]string{"run", ex, "--cassette", filepath.Join(ex, "cassettes", "review.cassette.yaml"), "--trace", tr}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"→ collecting", "→ reviewing", "→ commenting", "host.agent.decide [review]", "say: Review comment:", "exit changes_requested", "trace: " + tr} {
		if !strings.Contains(s, want) {
			t.Errorf("log lacks %q:\n%s", want, s)
		}
	}
}

func TestRunUsageAndFindings(t *testing.T) {
	ex := filepath.Join("..", "examples", "pr-review")
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run"}, exitUsageEnv, "accepts 1 arg"},
		{[]string{"run", ex, "--slot", "a=b"}, exitUsageEnv, "must follow the --intent"},
		{[]string{"run", ex, "--world", "nope=1"}, exitUsageEnv, `world key "nope" is not declared`},
		{[]string{"run", ex, "--cassette", filepath.Join(dir, "missing.yaml")}, exitUsageEnv, "--cassette"},
		{[]string{"run", filepath.Join(dir, "nowhere")}, exitUsageEnv, "nowhere: no such file or directory"},
		// the claude CLI cannot run here; a miss on the cassette fails the run
		{[]string{"run", ex, "--cassette", filepath.Join("..", "pkg", "engine", "testdata", "agent_probe", "flows", "who_are_you.cassette.yaml")}, exitFinding, "cassette"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		args := append(c.args, "--trace", filepath.Join(dir, fmt.Sprintf("t%d.jsonl", len(c.args))))
		if len(c.args) == 1 {
			args = c.args
		}
		code := Run(args, &out, &errb)
		if code != c.code || !strings.Contains(errb.String()+out.String(), c.want) {
			t.Errorf("%v: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant %q", c.args, code, c.code, out.String(), errb.String(), c.want)
		}
	}
}

func TestRunRestsWithoutInput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(`app: { id: rest, version: 0.1.0 }
intents:
  go: {}
  stop: {}
root: idle
states:
  idle:
    on:
      go: [ { target: busy } ]
  busy:
    on:
      stop: [ { target: done } ]
  done: { terminal: true }
`), 0o644)
	tr := filepath.Join(dir, "t.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"run", dir, "--intent", "go", "--trace", tr}, &out, &errb)
	if code != exitFinding || !strings.Contains(errb.String(), `rested in state "busy"`) || !strings.Contains(errb.String(), "stop") {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	code = Run([]string{"run", dir, "--intent", "go", "--intent", "stop", "--trace", filepath.Join(dir, "t2.jsonl"), "--json"}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `"outcome": "terminal"`) {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	readTrace(t, tr)
}

func TestRunHostCassetteAndIntents(t *testing.T) {
	probe := filepath.Join("..", "pkg", "engine", "testdata", "agent_probe")
	tr := filepath.Join(t.TempDir(), "p.jsonl")
	var out, errb bytes.Buffer
	args := []string{"run", probe, "--host-cassette", filepath.Join(probe, "flows", "who_are_you.cassette.yaml"), "--json", "--trace", tr}
	for range 2 {
		args = append(args, "--intent", "ask", "--slot", "question=who are you")
	}
	code := Run(args, &out, &errb)
	if code != exitFinding { // the probe room waits for more questions: the run rests
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var sum struct {
		Outcome string         `json:"outcome"`
		World   map[string]any `json:"world"`
		Calls   []any          `json:"calls"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if sum.Outcome != "rested" || sum.World["reply"] != "I am GLM-5.1, served via synthetic.new, reachable." || len(sum.Calls) != 2 {
		t.Errorf("summary = %+v", sum)
	}
	kinds := countKinds(readTrace(t, tr))
	if kinds["agent.call.start"] != 2 || kinds["turn.start"] != 2 || kinds["session.story"] != 1 {
		t.Errorf("kinds = %v", kinds)
	}
}

// slowStory's one call runs for 30s: a run of it ends by --timeout.
const slowStory = `app: { id: slow, version: 0.1.0 }
hosts: [host.run]
root: start
states:
  start:
    terminal: true
    on_enter:
      - invoke: host.run
        with: { cmd: "sleep 30" }
`

func TestRunTimeout(t *testing.T) {
	dir := writeStory(t, slowStory)
	tr := filepath.Join(dir, "t.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"run", dir, "--timeout", "300ms", "--trace", tr}, &out, &errb)
	if code != exitFinding || !strings.Contains(errb.String(), "--timeout 300ms reached") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if kinds := countKinds(readTrace(t, tr)); kinds["machine.error"] != 1 {
		t.Errorf("kinds = %v", kinds)
	}
}

// aliasStory asks agent.x (a plugin that exits at once) once; its
// cassette answers agent.x by alias.
const aliasStory = `app: { id: alias, version: 0.1.0 }
agent_plugins:
  agent.x: { plugin: subprocess, command: /bin/false }
world:
  out: { type: string, default: "" }
root: start
states:
  start:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.x
        with: { prompt: hi }
        bind: { out: submitted }
`

// TestRunHostCassetteAliasEpisodes: --host-cassette serves host handlers
// only, so an episode naming an agent alias answers nothing (the plugin
// runs): run says so, naming the alias and --cassette, which replays it.
func TestRunHostCassetteAliasEpisodes(t *testing.T) {
	dir := writeStory(t, aliasStory)
	cas := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cas, []byte("kind: host_cassette\napp_id: alias\nepisodes:\n  - id: e\n    replay: any\n    match: {handler: agent.x}\n    agent: {verb: ask, response: '\"BLK\"'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--host-cassette", "--cassette"} {
		var out, errb bytes.Buffer
		Run([]string{"run", dir, flag, cas, "--json", "--trace", filepath.Join(t.TempDir(), "t.jsonl")}, &out, &errb)
		warned := strings.Contains(errb.String(), "episodes naming agent.x answer no call") && strings.Contains(errb.String(), "replay them with --cassette")
		answered := strings.Contains(out.String(), `"out": "\"BLK\""`)
		if want := flag == "--host-cassette"; warned != want || answered == want {
			t.Errorf("%s: warned %v, answered %v\n%s%s", flag, warned, answered, out.String(), errb.String())
		}
	}
}

// TestRunRestsInADeadEnd: a run that rests in a state taking no intent
// (and not terminal) says that no --intent can move it on and how to end
// there, instead of "(it handles: ); pass --intent NAME to continue".
func TestRunRestsInADeadEnd(t *testing.T) {
	dir := writeStory(t, `app: { id: deadend, version: 0.1.0 }
intents:
  go: {}
root: idle
states:
  idle:
    on:
      go: [ { target: stuck } ]
  stuck:
    on_enter:
      - say: "here"
`)
	code, _, errOut := runCmd(t, "run", dir, "--intent", "go", "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if code != exitFinding || !strings.Contains(errOut, `rested in state "stuck", which takes no intent, so no --intent can move it on; mark it terminal: true`) || strings.Contains(errOut, "it handles: )") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
}
