package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that writes a file the operator names (graph -o, test
// merge --json/--junit, test intents --baseline, trace export/to-cassette -o, eval show --html) or
// a default under the repository (eval run's reports/<call>/) refuses a
// path that a symlink in the project leads out of it, as test and run do
// (TestOutputUnderKitsokiLinkOutRefused): nothing lands outside.
func TestOutputLinkOutRefusedEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string // run in the project, where out/ links outside
	}{
		{"graph -o", []string{"graph", "app.yaml", "-o", "out/g.svg"}},
		{"test merge --json", []string{"test", "merge", "r.json", "--json", "out/m.json"}},
		{"test merge --junit", []string{"test", "merge", "r.json", "--junit", "out/m.xml"}},
		{"trace export -o", []string{"trace", "export", "t.jsonl", "-o", "out/e.json"}},
		{"trace to-cassette -o", []string{"trace", "to-cassette", "t.jsonl", "-o", "out/c.yaml"}},
		{"test intents --baseline", []string{"test", "intents", "app.yaml", "--baseline", "out/b.json", "--update-baseline"}},
		{"eval show --html", []string{"eval", "show", "--html", "out/r.html", filepath.Join(mustAbs(t, evCorpus), "evals", "reports", "merge_judge", "latest.json")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, outside := confineProject(t)
			writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
			writeFileT(t, filepath.Join(proj, "intents", "a.yaml"), confineIntents)
			writeFileT(t, filepath.Join(proj, "recording.yaml"), confineRecording)
			t.Chdir(proj)
			if code, stdout, stderr := runCmd(t, "test", "app.yaml", "--json", "r.json"); code != 0 {
				t.Fatalf("test --json: exit %d\n%s%s", code, stdout, stderr)
			}
			if code, stdout, stderr := runCmd(t, "run", "app.yaml", "--intent", "go", "--trace", "t.jsonl"); code != 0 {
				t.Fatalf("run --trace: exit %d\n%s%s", code, stdout, stderr)
			}
			symlinkT(t, outside, filepath.Join(proj, "out"))
			code, stdout, stderr := runCmd(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, "leading out of the project root "+proj) {
				t.Errorf("exit %d, want 2 and a refusal naming the root:\n%s%s", code, stdout, stderr)
			}
			if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 {
				t.Errorf("something was written outside the project: %v %v", ents, err)
			}
		})
	}
}

// eval run writes its reports under the dataset's reports/<call>/ by
// default: a repository whose reports/ links outside gets a refusal.
func TestEvalDefaultReportsLinkOutRefused(t *testing.T) {
	dir, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkT(t, outside, filepath.Join(dir, "evals", "reports"))
	t.Chdir(dir)
	code, stdout, stderr := runCmd(t, "eval", "run", "--cassette", cas, ds)
	if code != 2 || !strings.Contains(stderr, "leading out of the project root") {
		t.Errorf("exit %d, want 2 and a refusal:\n%s%s", code, stdout, stderr)
	}
	if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 {
		t.Errorf("something was written outside the project: %v %v", ents, err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A trace file the repository planted as a symbolic link in the
// operator's --trace-dir (named as kitsoki names the fixture's trace,
// leading outside) is not written through: the fixture fails naming the
// link, and nothing is created where it leads.
func TestTraceDirPlantedLinkRefused(t *testing.T) {
	proj, outside := confineProject(t)
	writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
	if err := os.MkdirAll(filepath.Join(proj, "td"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkT(t, filepath.Join(outside, "planted.jsonl"), filepath.Join(proj, "td", "flows__a.jsonl"))
	t.Chdir(proj)
	code, stdout, stderr := runCmd(t, "test", "app.yaml", "--trace-dir", "td")
	if code == 0 || !strings.Contains(stdout+stderr, "is a symbolic link") {
		t.Errorf("exit %d, want the fixture failed on the link:\n%s%s", code, stdout, stderr)
	}
	if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 {
		t.Errorf("something was written outside the project: %v %v", ents, err)
	}
}
