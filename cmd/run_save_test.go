package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// saveStory runs host.run for real on each count: the same call site
// answers the same until the counter moves, so the stubs differ per turn
// only in counter.yaml.
const saveStory = `app:
  id: saver
root: idle
hosts: [host.run]
world:
  n:   { type: int, default: 0 }
  out: { type: string, default: "" }
intents:
  count: {}
  done: {}
states:
  idle:
    on:
      count:
        - target: idle
          effects:
            - increment: { n: 1 }
            - invoke: host.run
              id: say
              with: { cmd: "echo %s" }
              bind: { out: stdout }
      done: [ { target: finished } ]
  finished:
    terminal: true
`

func saveTree(t *testing.T, cmd string) string {
	t.Helper()
	return storytest.TempTree(t, map[string]string{
		"app.yaml":       strings.Replace(saveStory, "%s", cmd, 1),
		"flows/.keep":    "",
		".kitsoki/.keep": "",
	})
}

func runSaving(t *testing.T, dir string, extra ...string) (int, string, string) {
	t.Helper()
	args := append([]string{"run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl")}, extra...)
	return runCmd(t, args...)
}

func testSaved(t *testing.T, dir, flows string) {
	t.Helper()
	code, out, errOut := runCmd(t, "test", dir, "--flows", flows)
	if code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		t.Fatalf("kitsoki test on the saved fixture: %d\n%s%s", code, out, errOut)
	}
}

// A run whose calls answer alike every time is saved with host_handlers
// stubs (the real host.run's answer), the world keys each turn changed and
// the state it reached; the fixture passes at once.
func TestSaveFixtureStubs(t *testing.T) {
	dir := saveTree(t, "hello")
	file := filepath.Join(dir, "flows", "saved.yaml")
	code, out, errOut := runSaving(t, dir, "--intent", "count", "--intent", "count", "--intent", "done", "--save-fixture", file)
	if code != 0 || !strings.Contains(out, "saved fixture "+file+": 3 turn(s), 1 host_handlers stub(s)") {
		t.Fatalf("%d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"app: ../app.yaml", "initial_state: idle", "host.run:\n    data:", "stdout: |\n", "- intent: {name: count, slots: {}}\n    expect_state: idle\n    expect_world:\n      \"n\": 1\n      out: |\n        hello",
		"expect_world:\n      \"n\": 2\n", "expect_state: finished", "expect_terminal: true"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the fixture lacks %q:\n%s", want, data)
		}
	}
	testSaved(t, dir, "flows/saved.yaml")
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 2 {
		t.Fatalf("files left beside the fixture: %v", entries)
	}
}

// A job's id is never expected: the existing engine's ids are random, so
// a fixture expecting last_job_id or a job_id bind fails there (probe
// /work/notes/probes/hunt56-save-job-id); the job's other writes are.
func TestSaveFixtureNoJobIDs(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": `app: {id: savejob}
root: s0
hosts: [host.run]
world:
  j: {type: string, default: ""}
  t: {type: string, default: ""}
intents: {go: {}, ping: {}}
states:
  s0:
    on:
      go:
        - target: .
          effects:
            - invoke: host.run
              background: true
              with: {cmd: echo, args: [hi]}
              bind: {j: job_id}
              on_complete:
                - set: {t: "{{ world.last_job_status }}"}
      ping: [{target: .}]
`,
		"flows/.keep":    "",
		".kitsoki/.keep": "",
	})
	file := filepath.Join(dir, "flows", "job.yaml")
	code, out, errOut := runSaving(t, dir, "--intent", "go", "--intent", "ping", "--save-fixture", file)
	if code != 1 || !strings.Contains(out, "saved fixture "+file) {
		t.Fatalf("%d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "last_job_id") || strings.Contains(string(data), "j: ") || !strings.Contains(string(data), "t: done") {
		t.Errorf("the fixture expects a job id, or not the job's landing:\n%s", data)
	}
	testSaved(t, dir, "flows/job.yaml")
}

// One call site answering differently on different calls cannot be a
// stub: the answers go to a host cassette beside the fixture, in order.
func TestSaveFixtureCassette(t *testing.T) {
	dir := saveTree(t, "{{ world.n }}")
	file := filepath.Join(dir, "flows", "counted.yaml")
	code, out, errOut := runSaving(t, dir, "--intent", "count", "--intent", "count", "--save-fixture", file)
	if code != 1 || !strings.Contains(out, "2 answer(s) in counted.cassette.yaml") {
		t.Fatalf("%d\n%s%s", code, out, errOut)
	}
	data, _ := os.ReadFile(file)
	cas, err := os.ReadFile(filepath.Join(dir, "flows", "counted.cassette.yaml"))
	if err != nil || !strings.Contains(string(data), "host_cassette: counted.cassette.yaml") || strings.Contains(string(data), "host_handlers") {
		t.Fatalf("%v\n%s", err, data)
	}
	if !strings.Contains(string(cas), "kind: host_cassette") || strings.Count(string(cas), "handler: host.run") != 2 || !strings.Contains(string(cas), "stdout: |\n          1\n") {
		t.Fatalf("cassette:\n%s", cas)
	}
	testSaved(t, dir, "flows/counted.yaml")
	if entries, _ := os.ReadDir(filepath.Join(dir, "flows")); len(entries) != 3 {
		t.Fatalf("scratch files left beside the fixture: %v", entries)
	}
}

// A fixture saved again with --force from a run whose answers are stubs
// now names no cassette: the earlier save's is kept (another fixture may
// read it) and the command says it is no longer named.
func TestSaveFixtureForceLeavesCassetteNamed(t *testing.T) {
	dir := saveTree(t, "{{ world.n }}")
	file := filepath.Join(dir, "flows", "counted.yaml")
	if code, out, errOut := runSaving(t, dir, "--intent", "count", "--intent", "count", "--save-fixture", file); !strings.Contains(out, "2 answer(s) in counted.cassette.yaml") {
		t.Fatalf("%d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runSaving(t, dir, "--intent", "count", "--save-fixture", file, "--force")
	if !strings.Contains(out, "1 host_handlers stub(s)") {
		t.Fatalf("%d\n%s%s", code, out, errOut)
	}
	stale := filepath.Join(dir, "flows", "counted.cassette.yaml")
	if want := stale + ", an earlier save's host cassette, is not named by the new fixture"; !strings.Contains(out, want) {
		t.Errorf("no word of the cassette the fixture no longer names; want %q in\n%s", want, out)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("the earlier cassette was removed: %v", err)
	}
	testSaved(t, dir, "flows/counted.yaml")
}

// The file is never overwritten without --force, never written outside
// the project, never anything but YAML; a run that failed writes nothing.
func TestSaveFixtureRefusals(t *testing.T) {
	dir := saveTree(t, "hi")
	file := filepath.Join(dir, "flows", "f.yaml")
	if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--save-fixture", file}, exitUsageEnv, "the file exists; pass --force to overwrite it"},
		{[]string{"--save-fixture", filepath.Join(t.TempDir(), "x.yaml")}, exitUsageEnv, "outside the story's project root"},
		{[]string{"--save-fixture", filepath.Join(dir, "flows", "x.json")}, exitUsageEnv, "a fixture is a .yaml file"},
		{[]string{"--save-fixture", filepath.Join(dir, "nope", "x.yaml")}, exitUsageEnv, "does not exist; create it first"},
		{[]string{"--force"}, exitUsageEnv, "--force only goes with --save-fixture"},
		{[]string{"--intent", "nope", "--save-fixture", filepath.Join(dir, "flows", "bad.yaml")}, exitFinding, "the run failed, so there is nothing to save; fix the run first: intent \"nope\" is not allowed"},
	} {
		code, _, errOut := runSaving(t, dir, append([]string{"--intent", "count"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, want %d with %q:\n%s", c.args, code, c.code, c.want, errOut)
		}
	}
	if data, _ := os.ReadFile(file); string(data) != "mine\n" {
		t.Fatalf("overwritten: %s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "flows", "bad.yaml")); err == nil {
		t.Fatal("a failed run was saved")
	}
	code, out, errOut := runSaving(t, dir, "--intent", "count", "--save-fixture", file, "--force")
	if code != 1 || !strings.Contains(out, "saved fixture") {
		t.Fatalf("--force: %d\n%s%s", code, out, errOut)
	}
	testSaved(t, dir, "flows/f.yaml")
}

// A run stopped while it waits out a state's timeout after its last
// --intent says so, with the run's own error and what to save instead
// (the save's error used to replace the run's with "the run failed").
// The deadline is seconds, not milliseconds: the wait lasts a day, so a
// deadline the run meets before it reaches the wait (a loaded machine
// loading the story) would test another message; the test runs beside
// the others while it waits.
func TestSaveFixtureRunStoppedAtTimeout(t *testing.T) {
	t.Parallel()
	dir := writeStory(t, `app: {id: st}
root: a
intents:
  go: {}
states:
  a:
    on:
      go: [{target: b}]
  b:
    timeout: {after: 1d, target: c}
  c: {terminal: true}
`)
	code, _, errOut := runCmd(t, "run", dir, "--intent", "go", "--timeout", "5s",
		"--trace", filepath.Join(t.TempDir(), "t.jsonl"), "--save-fixture", filepath.Join(dir, "f.yaml"))
	for _, want := range []string{
		`--save-fixture: the run was stopped before it ended (run interrupted while waiting 1d for the timeout of "b"`,
		"waits it out on the real clock",
	} {
		if code != exitFinding || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, want %d with %q:\n%s", code, exitFinding, want, errOut)
		}
	}
}

// A run --timeout stops in the middle of a turn says, with --save-fixture
// as without it, that the --timeout was reached (the save's message used
// to show only "context deadline exceeded").
func TestSaveFixtureRunStoppedByTimeoutFlag(t *testing.T) {
	t.Parallel()
	dir := writeStory(t, slowStory)
	code, _, errOut := runCmd(t, "run", dir, "--timeout", "300ms",
		"--trace", filepath.Join(t.TempDir(), "t.jsonl"), "--save-fixture", filepath.Join(dir, "f.yaml"))
	if code != exitFinding || !strings.Contains(errOut, "--save-fixture: the run was stopped before it ended") || !strings.Contains(errOut, "(--timeout 300ms reached)") {
		t.Errorf("exit %d, want %d naming the --timeout reached:\n%s", code, exitFinding, errOut)
	}
}
