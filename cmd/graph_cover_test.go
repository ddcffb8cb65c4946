package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

const coverGraphStory = `app: {id: c}
intents: {go: {}, back: {}, more: {}}
root: a
states:
  a:
    on:
      go: [{target: b}]
      back: [{target: c}]
  b: {terminal: true}
  c:
    on:
      more: [{target: b}]
`

const coverGraphFlow = `test_kind: flow
app: ../app.yaml
initial_state: a
turns:
  - intent: {name: go}
    expect_state: b
`

// kitsoki graph --coverprofile colours what kitsoki test --coverprofile
// counted: from the directory the test ran in, or from the directory that
// holds .kitsoki/coverage.json.
func TestGraphCoverprofile(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{"app.yaml": coverGraphStory, "flows/go.yaml": coverGraphFlow, ".kitsoki/.keep": ""})
	t.Chdir(dir)
	if code, out, errOut := runCmd(t, "test", ".", "--coverprofile", ".kitsoki/coverage.json"); code != 0 {
		t.Fatalf("test: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "test", ".", "--coverprofile", "cover.info"); code != 0 {
		t.Fatalf("test lcov: exit %d\n%s", code, errOut)
	}
	const (
		reached   = `s_b [label="b", peripheries=2, fillcolor="#d4edda"`
		unreached = `s_c [label="c", fillcolor="#f8d7da"`
		arcOn     = `s_a -> s_b [label="go", penwidth=2, color="#2e7d32"`
		arcOff    = `s_a -> s_c [label="back", penwidth=2, color="#c0392b"`
	)
	code, out, errOut := runCmd(t, "graph", ".", "--format", "dot", "--coverprofile", ".kitsoki/coverage.json")
	for _, want := range []string{reached, unreached, arcOn, arcOff} {
		if code != 0 || errOut != "" || !strings.Contains(out, want) {
			t.Fatalf("exit %d, stderr %q: the DOT lacks %s\n%s", code, errOut, want, out)
		}
	}
	code, out, _ = runCmd(t, "graph", ".", "--coverprofile", ".kitsoki/coverage.json")
	if code != 0 || !strings.Contains(out, "class s_a,s_b reached") || !strings.Contains(out, "class s_c unreached") {
		t.Fatalf("mermaid: exit %d\n%s", code, out)
	}
	// elsewhere: the editor profile's paths are relative to its directory
	t.Chdir(t.TempDir())
	code, out, errOut = runCmd(t, "graph", dir, "--format", "dot", "--coverprofile", filepath.Join(dir, ".kitsoki", "coverage.json"))
	if code != 0 || errOut != "" || !strings.Contains(out, unreached) {
		t.Fatalf("from another directory: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// a profile of another story colours nothing, and says so
	other := writeStory(t, "app: {id: o}\nroot: z\nstates:\n  z: {}\n")
	code, out, errOut = runCmd(t, "graph", other, "--format", "dot", "--coverprofile", filepath.Join(dir, ".kitsoki", "coverage.json"))
	if code != 0 || strings.Contains(out, "#d4edda") || strings.Contains(out, "#f8d7da") || !strings.Contains(errOut, "knows none of") || !strings.Contains(errOut, "nothing is coloured") {
		t.Fatalf("another story: exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "cover.info"), "LCOV profiles count lines, not the states and moves a drawing colours; write a JSON one with kitsoki test --coverprofile FILE --cover-format json"},
		{filepath.Join(dir, "app.yaml"), "not a kitsoki JSON coverage profile"},
		{filepath.Join(dir, "missing.json"), "--coverprofile " + filepath.Join(dir, "missing.json")},
	} {
		code, out, errOut := runCmd(t, "graph", dir, "--coverprofile", c.file)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("--coverprofile %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.file, code, out, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cover.info")); err != nil {
		t.Fatal(err)
	}
}

// kitsoki test --cover -v lists each unreached move with a kitsoki run
// command that reaches the state it leaves from.
func TestCoverPathHints(t *testing.T) {
	// The corpus is found from the checkout: look it up before leaving it
	// (looked up after the first Chdir, it was never found and the corpus
	// half of this test always skipped).
	corpus := storytest.Corpus(t, ".")
	dir := storytest.TempTree(t, map[string]string{"app.yaml": coverGraphStory, "flows/go.yaml": coverGraphFlow})
	t.Chdir(dir)
	code, out, errOut := runCmd(t, "test", ".", "--cover", "-v")
	want := "  app.yaml:8:14: arc on back → c (in a)\n      to reach a: kitsoki run .\n" +
		"  app.yaml:10:3: state c\n" +
		"  app.yaml:12:14: arc on more → b (in c)\n      to reach c: kitsoki run . --intent back\n" +
		"intent paths: the fewest intents from the root to the state the move leaves from, guards ignored"
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, stderr %q: the list lacks\n%s\n%s", code, errOut, want, out)
	}
	// without -v: no list, no hints
	if _, out, _ = runCmd(t, "test", ".", "--cover"); strings.Contains(out, "to reach") {
		t.Errorf("hints without -v:\n%s", out)
	}
	// a story that loads only under the DIR of a DIR/... argument gets --root DIR
	t.Chdir(corpus)
	code, out, errOut = runCmd(t, "test", "imports_smoke/...", "--cover", "-v")
	want = "      to reach sub.working: kitsoki run imports_smoke/parent --root imports_smoke --intent begin_substory --intent sub__start_work\n"
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, stderr %q: the list lacks\n%s\n%s", code, errOut, want, out)
	}
}
