package cmd

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// testStory copies the flowtest rig story into a temporary directory with
// the given fixtures under flows/.
func testStory(t *testing.T, flows map[string]string) string {
	t.Helper()
	src, err := os.ReadFile("../pkg/flowtest/testdata/rig/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := storytest.TempTree(t, map[string]string{"app.yaml": string(src)})
	storytest.WriteTree(t, filepath.Join(dir, "flows"), flows)
	return dir
}

const passFlow = `test_kind: flow
initial_state: a
host_handlers:
  host.run: { data: { stdout: "hi" } }
turns:
  - intent: { name: go }
    expect_state: b
    expect_world: { out: hi }
`

const failFlow = `test_kind: flow
initial_state: a
host_handlers:
  host.run: { data: { stdout: "hi" } }
turns:
  - intent: { name: go }
    expect_state: b
  - intent: { name: back }
    expect_state: b
    expect_world: { out: bye }
`

func TestTestExitCodesAndOutput(t *testing.T) {
	dir := testStory(t, map[string]string{"a_pass.yaml": passFlow, "b_fail.yaml": failFlow})
	code, out, _ := runCmd(t, "test", dir)
	if code != exitFinding {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"ok    " + filepath.Join(dir, "flows", "a_pass.yaml") + "  (1 turn, ",
		"FAIL  " + filepath.Join(dir, "flows", "b_fail.yaml") + "  (2 turns, ",
		"      turn 2 → a (expected b)\n        " + filepath.Join(dir, "flows", "b_fail.yaml") + ":9:5: expect_state: got \"a\", want \"b\"",
		`b_fail.yaml:10:21: expect_world["out"]: got "hi" (string), want "bye" (string)`,
		"last events of the turn:", "machine.transition b → a (back)",
		"\n1 passed, 1 failed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runCmd(t, "test", dir, "--run", "pass"); code != exitOK || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Fatalf("--run: exit %d\n%s", code, out)
	}
	// A fixture that cannot run stops everything with exit 2, positioned.
	bad := testStory(t, map[string]string{"a.yaml": passFlow, "z.yaml": "test_kind: flow\nturns:\n  - advance_clock: soon\n"})
	code, out, errOut := runCmd(t, "test", bad)
	if code != exitUsageEnv || !strings.Contains(errOut, "z.yaml:3:20: error: turns[0].advance_clock: invalid duration \"soon\"") || out != "" {
		t.Fatalf("bad fixture: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// The existing engine's spelling, its --json report, and JUnit.
func TestTestFlowsSpellingAndReports(t *testing.T) {
	dir := testStory(t, map[string]string{"a_pass.yaml": passFlow, "b_fail.yaml": failFlow})
	rep := filepath.Join(t.TempDir(), "r.json")
	ju := filepath.Join(t.TempDir(), "r.xml")
	code, out, errOut := runCmd(t, "test", "flows", filepath.Join(dir, "app.yaml"), "--json", rep, "--junit", ju, "--fail-fast", "-j", "1")
	if code != exitFinding || !strings.HasSuffix(out, "1 passed, 1 failed\nSummary: 1/2 flows pass\nFAIL\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Results []struct {
			File   string
			Passed bool
			Turns  []struct {
				TurnIndex int
				Passed    bool
				Failures  []string
				NewState  string
				View      string
				Events    []map[string]any
			}
			Skipped bool
		}
		Passed, Failed int
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Passed != 1 || r.Failed != 1 || len(r.Results) != 2 || !r.Results[0].Passed || r.Results[1].Turns[1].NewState != "a" {
		t.Fatalf("report: %s", data)
	}
	ev := r.Results[0].Turns[0].Events
	if len(ev) == 0 || ev[0]["ts"] != "0001-01-01T00:00:00Z" || ev[0]["seq"] != 0.0 {
		t.Fatalf("events: %v", ev)
	}
	if strings.HasSuffix(string(data), "\n") || !strings.HasPrefix(string(data), "{\n  \"Results\": [") {
		t.Errorf("not upstream's layout: %.40q", data)
	}
	x, _ := os.ReadFile(ju)
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(x, &suites); err != nil || suites.Tests != 2 || suites.Failures != 1 {
		t.Fatalf("junit: %v %+v\n%s", err, suites, x)
	}
	// --json - writes the report on stdout and the text on stderr.
	code, out, errOut = runCmd(t, "test", dir, "--json", "-", "--run", "pass")
	if code != exitOK || !strings.HasPrefix(out, "{") || !strings.Contains(errOut, "1 passed, 0 failed") {
		t.Fatalf("--json -: %d\n%s\n%s", code, out, errOut)
	}
	// --junit - writes the JUnit report on stdout (no file named "-") and
	// the text on stderr; two reports on stdout are a usage error.
	wd := t.TempDir()
	t.Chdir(wd)
	code, out, errOut = runCmd(t, "test", dir, "--junit", "-")
	if err := xml.Unmarshal([]byte(out), &suites); err != nil || code != exitFinding || suites.Tests != 2 || !strings.Contains(errOut, "1 passed, 1 failed") {
		t.Fatalf("--junit -: %d %v\n%s\n%s", code, err, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(wd, "-")); err == nil {
		t.Errorf("--junit - wrote a file named -")
	}
	if code, _, errOut := runCmd(t, "test", dir, "--junit", "-", "--json", "-"); code != exitUsageEnv || !strings.Contains(errOut, "--json - and --junit - both want stdout") {
		t.Fatalf("two stdouts: %d %s", code, errOut)
	}
	// test merge --junit - writes only the JUnit report on stdout.
	code, out, errOut = runCmd(t, "test", "merge", rep, "--junit", "-")
	if err := xml.Unmarshal([]byte(out), &suites); err != nil || code != exitFinding || suites.Tests != 2 {
		t.Fatalf("merge --junit -: %d %v\n%s\n%s", code, err, out, errOut)
	}
	// No fixture matched is exit 2 for the upstream spelling.
	if code, _, errOut := runCmd(t, "test", "flows", filepath.Join(dir, "app.yaml"), "--flows", filepath.Join(dir, "nope", "*.yaml")); code != exitUsageEnv || !strings.Contains(errOut, "no flow fixtures matched") {
		t.Fatalf("no match: %d %s", code, errOut)
	}
}

func TestTestGitHubFormat(t *testing.T) {
	dir := testStory(t, map[string]string{"b_fail.yaml": failFlow + "bogus: 1\n"})
	code, out, _ := runCmd(t, "test", dir, "--format", "github")
	if code != exitFinding || !strings.Contains(out, "::error file="+filepath.Join(dir, "flows", "b_fail.yaml")+",line=9,col=5,") ||
		!strings.Contains(out, "::warning file="+filepath.Join(dir, "flows", "b_fail.yaml")+",line=11,") {
		t.Fatalf("github: %d\n%s", code, out)
	}
}

// Shards split the fixtures so each runs exactly once, stably; merging
// their reports gives the whole run's counts.
func TestTestShardAndMerge(t *testing.T) {
	flows := map[string]string{}
	for i := range 9 {
		flows[string(rune('a'+i))+".yaml"] = passFlow
	}
	flows["z_fail.yaml"] = failFlow
	dir := testStory(t, flows)
	tmp := t.TempDir()
	seen := map[string]int{}
	var reps []string
	for i := 1; i <= 3; i++ {
		rep := filepath.Join(tmp, "s"+string(rune('0'+i))+".json")
		reps = append(reps, rep)
		runCmd(t, "test", dir, "--shard", string(rune('0'+i))+"/3", "--json", rep)
		data, _ := os.ReadFile(rep)
		var r struct{ Results []struct{ File string } }
		json.Unmarshal(data, &r)
		for _, res := range r.Results {
			seen[res.File]++
		}
		// Stable: the same shard again picks the same fixtures.
		rep2 := rep + ".again"
		runCmd(t, "test", dir, "--shard", string(rune('0'+i))+"/3", "--json", rep2)
		again, _ := os.ReadFile(rep2)
		var r2 struct{ Results []struct{ File string } }
		json.Unmarshal(again, &r2)
		if len(r2.Results) != len(r.Results) {
			t.Fatalf("shard %d not stable", i)
		}
	}
	if len(seen) != 10 {
		t.Fatalf("shards covered %d of 10 fixtures: %v", len(seen), seen)
	}
	for f, n := range seen {
		if n != 1 {
			t.Fatalf("%s ran %d times", f, n)
		}
	}
	code, out, errOut := runCmd(t, append([]string{"test", "merge"}, reps...)...)
	if code != exitFinding {
		t.Fatalf("merge: %d %s", code, errOut)
	}
	var m struct{ Passed, Failed int }
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Passed != 9 || m.Failed != 1 {
		t.Fatalf("merged: %v %s", err, out)
	}
	if code, _, _ := runCmd(t, "test", dir, "--shard", "4/3"); code != exitUsageEnv {
		t.Fatalf("bad shard accepted")
	}
}

func TestTestTraceDir(t *testing.T) {
	dir := testStory(t, map[string]string{"a.yaml": passFlow})
	td := filepath.Join(t.TempDir(), "traces")
	if code, out, errOut := runCmd(t, "test", dir, "--trace-dir", td); code != exitOK {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	traces, _ := filepath.Glob(filepath.Join(td, "*.jsonl"))
	if len(traces) != 1 {
		t.Fatalf("traces: %v", traces)
	}
	if code, out, errOut := runCmd(t, "trace", "verify", traces[0]); code != exitOK {
		t.Fatalf("trace verify: %d %s %s", code, out, errOut)
	}
}

// kitsoki validate lints the fixtures it finds beside a story.
func TestValidateLintsFixtures(t *testing.T) {
	dir := testStory(t, map[string]string{"a.yaml": "test_kind: flow\ninitial_state: nowhere\nturns:\n  - intent: { name: go }\n    bogus: 1\n"})
	code, out, _ := runCmd(t, "validate", dir)
	if code != exitOK || !strings.Contains(out, `initial_state "nowhere" is not a state of the story`) || !strings.Contains(out, `unknown key "bogus"`) {
		t.Fatalf("validate: %d\n%s", code, out)
	}
	dir = testStory(t, map[string]string{"a.yaml": "test_kind: flow\nturns:\n  - intent: { name: go }\n    bogus: 1 # kitsoki:ignore flow-unknown-key\n"})
	if code, out, _ := runCmd(t, "validate", dir); code != exitOK || strings.Contains(out, "bogus") {
		t.Fatalf("kitsoki:ignore in a fixture: %d\n%s", code, out)
	}
	dir = testStory(t, map[string]string{"a.yaml": "test_kind: flow\nturns:\n  - expect_state: a\n"})
	if code, out, _ := runCmd(t, "validate", dir); code != exitFinding || !strings.Contains(out, "a turn needs one of intent:") {
		t.Fatalf("validate unrunnable fixture: %d\n%s", code, out)
	}
}

// --kitsoki-repo (upstream's global flag, flow-format.md §6.8) resolves
// @kitsoki/<name> imports in DIR/stories/<name>; without it (and without
// $KITSOKI_REPO or a checkout above) the child cannot load.
func TestTestKitsokiRepo(t *testing.T) {
	t.Setenv("KITSOKI_REPO", "")
	repo := t.TempDir()
	storytest.WriteFile(t, filepath.Join(repo, "stories", "child", "app.yaml"), `app: { id: child, version: 0.1.0 }
intents:
  finish: { description: "finish" }
root: idle
exits:
  done: { description: "done" }
states:
  idle:
    description: "idle"
    on:
      finish:
        - target: "@exit:done"
`)
	parent := storytest.TempTree(t, map[string]string{
		"app.yaml": `app: { id: parent, version: 0.1.0 }
intents:
  begin: { description: "begin" }
root: main
imports:
  sub:
    source: "@kitsoki/child"
    entry: idle
    exits:
      done: { to: end }
states:
  main:
    description: "main"
    on:
      begin:
        - target: sub
  end:
    description: "end"
    terminal: true
`,
		"flows/f.yaml": `test_kind: flow
initial_state: main
turns:
  - intent: { name: begin }
    expect_state: sub.idle
  - intent: { name: sub__finish }
    expect_state: end
expect_terminal: true
`,
	})
	app := filepath.Join(parent, "app.yaml")
	if code, out, errOut := runCmd(t, "test", "flows", app, "--kitsoki-repo", repo); code != 0 {
		t.Fatalf("with --kitsoki-repo: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "test", "flows", app); code == 0 {
		t.Fatalf("without --kitsoki-repo the child must not resolve")
	}
	// validate takes it too (the existing engine's flag is global): the
	// child is checked, not skipped with a warning
	if code, out, errOut := runCmd(t, "validate", app, "--kitsoki-repo", repo); code != 0 || strings.Contains(out+errOut, "cannot resolve") {
		t.Fatalf("validate --kitsoki-repo: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, out, _ := runCmd(t, "validate", app); !strings.Contains(out, "cannot resolve @kitsoki/child") {
		t.Fatalf("validate without --kitsoki-repo must say the child is not checked:\n%s", out)
	}
	// and the existing engine's --semantic-routing, which changes neither
	// command there, is accepted on both
	for _, args := range [][]string{{"test", "flows", app, "--kitsoki-repo", repo, "--semantic-routing"}, {"validate", app, "--kitsoki-repo", repo, "--semantic-routing"}} {
		if code, out, errOut := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}
