package cmd

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

// trNormalise replaces what changes from run to run (wall-clock times,
// durations, the checkout's location, session ids) with placeholders.
func trNormalise(s, tmp string) string {
	abs, _ := filepath.Abs("..")
	s = strings.ReplaceAll(s, tmp, "<tmp>")
	s = strings.ReplaceAll(s, abs, "<repo>")
	// `trace show` truncates long lines at a fixed width, so whatever follows
	// a checkout path depends on how long that path is: cut the line there.
	s = regexp.MustCompile(`(<repo>|<tmp>)[^\n]*…`).ReplaceAllString(s, "$1…")
	s = regexp.MustCompile(`"cwd":"[^\n]*…`).ReplaceAllString(s, `"cwd":…`)
	s = regexp.MustCompile(`\d\d:\d\d:\d\d\.\d{3}`).ReplaceAllString(s, "hh:mm:ss.mmm")
	s = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`).ReplaceAllString(s, "<time>")
	s = regexp.MustCompile(` +\d+(ms|\.\ds)\b`).ReplaceAllString(s, " <dur>")
	s = regexp.MustCompile(`\d{8}T\d{6}Z-[a-z0-9-]+-[0-9a-f]{4}`).ReplaceAllString(s, "<session>")
	s = regexp.MustCompile(`"duration_ms":\d+`).ReplaceAllString(s, `"duration_ms":N`)
	s = regexp.MustCompile(`\d+ bytes`).ReplaceAllString(s, "N bytes")
	s = regexp.MustCompile(` {2,}`).ReplaceAllString(s, " ") // column widths follow the durations
	return s
}

// TestTraceCommandsOnExampleRun runs the pr-review example (agent calls
// replayed from its cassette) and checks every trace command's output on
// the trace kitsoki run wrote.
func TestTraceCommandsOnExampleRun(t *testing.T) {
	tmp := t.TempDir()
	tp := filepath.Join(tmp, "pr.jsonl")
	out, errOut, code := trRun(t, "", "run", "../examples/pr-review", "--cassette", "../examples/pr-review/cassettes/review.cassette.yaml", "--trace", tp)
	if code != 0 {
		t.Fatalf("kitsoki run: exit %d\n%s\n%s", code, out, errOut)
	}
	var all strings.Builder
	for _, args := range [][]string{
		{"trace", "verify", tp},
		{"trace", "show", tp},
		{"trace", "calls", tp},
		{"trace", "stats", tp},
	} {
		out, errOut, code := trRun(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		fmt.Fprintf(&all, "$ kitsoki %s\n%s\n", strings.Join(args, " "), out)
	}
	trGoldenFile(t, "example_pr_review.golden", trNormalise(all.String(), tmp))

	out, _, code = trRun(t, "", "trace", "export", "--format", "otlp-json", tp)
	if code != 0 || strings.Count(out, `"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}`) != 2 {
		t.Fatalf("export: %d\n%s", code, out)
	}
}

type trRunSummary struct {
	State   string         `json:"state"`
	Outcome string         `json:"outcome"`
	Exit    any            `json:"exit"`
	World   map[string]any `json:"world"`
	Trace   string         `json:"trace"`
}

func trRunJSON(t *testing.T, args ...string) trRunSummary {
	t.Helper()
	out, errOut, code := trRun(t, "", append([]string{"run", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("kitsoki run %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	var s trRunSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	return s
}

// trStates lists the states entered, in order, from a trace.
func trStates(t *testing.T, p string) []string {
	t.Helper()
	rd, err := trace.OpenFile(p, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var states []string
	for {
		ev, err := rd.Next()
		if err != nil {
			break
		}
		if ev.Kind == "machine.state_entered" {
			states = append(states, ev.StatePath)
		}
	}
	return states
}

// TestTraceToCassetteReplaysRun records a live run of the ci-triage example
// (a real subprocess plugin answers the decide call), turns its trace into a
// cassette, and replays the story from that cassette: the replay reaches
// the same states and the same world, and its agent calls come from the
// cassette's episodes.
func TestTraceToCassetteReplaysRun(t *testing.T) {
	t.Parallel() // in process, its own traces; the example is only read
	storytest.NeedGo(t)
	tmp := t.TempDir()
	live := trRunJSON(t, "../examples/ci-triage", "--trace", filepath.Join(tmp, "live.jsonl"))
	cas := filepath.Join(tmp, "replay.cassette.yaml")
	out, errOut, code := trRun(t, "", "trace", "to-cassette", live.Trace, "-o", cas)
	if code != 0 || !strings.Contains(out, "(1 episode)") {
		t.Fatalf("to-cassette: %d %s %s", code, out, errOut)
	}
	replay := trRunJSON(t, "../examples/ci-triage", "--trace", filepath.Join(tmp, "replay.jsonl"), "--cassette", cas)
	if live.State != replay.State || live.Outcome != replay.Outcome || fmt.Sprint(live.Exit) != fmt.Sprint(replay.Exit) {
		t.Fatalf("replay ended in %s/%s, live in %s/%s", replay.State, replay.Outcome, live.State, live.Outcome)
	}
	for _, w := range []map[string]any{live.World, replay.World} {
		delete(w, "session_id")
		delete(w, "ci_output") // go test prints its own wall time
	}
	lw, _ := json.Marshal(live.World)
	rw, _ := json.Marshal(replay.World)
	if string(lw) != string(rw) {
		t.Fatalf("worlds differ:\nlive   %s\nreplay %s", lw, rw)
	}
	if a, b := trStates(t, live.Trace), trStates(t, replay.Trace); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("states differ:\nlive   %v\nreplay %v", a, b)
	}
	out, _, _ = trRun(t, "", "trace", "calls", "--json", replay.Trace)
	var calls []trace.Call
	if err := json.Unmarshal([]byte(out), &calls); err != nil || len(calls) != 1 || calls[0].EpisodeID != "decide_triaging_1" {
		t.Fatalf("replayed calls: %v %s", err, out)
	}
}

// TestTraceOutputsCarryNoSecret runs a story whose agent plugin gets a
// secret through ${VAR} and checks that neither the trace, its sidecars nor
// any trace command's output contains the secret.
func TestTraceOutputsCarryNoSecret(t *testing.T) {
	storytest.NeedGo(t)
	tmp := t.TempDir()
	bin := buildTestBinary(t, "kitsoki/examples/plugins/triage-agent")
	story := filepath.Join(tmp, "story")
	for _, d := range []string{"prompts", "schemas"} {
		storytest.CopyTree(t, filepath.Join("../examples/ci-triage", d), filepath.Join(story, d))
	}
	app, err := os.ReadFile("../examples/ci-triage/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	decl := fmt.Sprintf("    command: %s\n    args: []\n    env:\n      TRIAGE_TOKEN: ${KITSOKI_TRACE_TEST_SECRET}\n", bin)
	text := regexp.MustCompile(`(?m)^    command: go\n    args: \[run, \.\./plugins/triage-agent\].*\n`).ReplaceAllString(string(app), decl)
	if text == string(app) {
		t.Fatal("could not rewrite the plugin declaration of the example")
	}
	os.WriteFile(filepath.Join(story, "app.yaml"), []byte(text), 0o644)
	secret := fmt.Sprintf("s3cr3t-%016x", rand.Uint64())
	t.Setenv("KITSOKI_TRACE_TEST_SECRET", secret)

	sessions := filepath.Join(tmp, "sessions")
	tp := filepath.Join(sessions, "secret-run.jsonl")
	trRunJSON(t, story, "--trace", tp, "--world", `test_cmd=echo "--- FAIL: TestSlug (0.00s)"; exit 1`)

	var outputs strings.Builder
	filepath.Walk(sessions, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			outputs.Write(b)
		}
		return nil
	})
	for _, args := range [][]string{
		{"trace", "verify", tp}, {"trace", "show", "--prompts", tp}, {"trace", "calls", "--json", tp},
		{"trace", "stats", "--json", tp}, {"trace", "export", tp}, {"trace", "to-cassette", tp, "-o", "-"},
		{"trace", "ls", "--sessions-dir", sessions},
	} {
		out, errOut, code := trRun(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		outputs.WriteString(out + errOut)
	}
	if !strings.Contains(outputs.String(), "agent.call.complete") && !strings.Contains(outputs.String(), "decide ←") {
		t.Fatal("the run made no agent call; the check would prove nothing")
	}
	if strings.Contains(outputs.String(), secret) {
		t.Fatal("the secret reached a trace or a trace command's output")
	}
}
