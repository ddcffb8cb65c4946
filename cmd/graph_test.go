package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const graphStory = `app: {id: g, title: Graph}
intents:
  go: {description: go}
root: a
states:
  a:
    on:
      go:
        - when: 'world.x == "y|z"'
          target: b
  b: {terminal: true}
world:
  x: {type: string, default: ""}
`

func TestGraphCommand(t *testing.T) {
	dir := writeStory(t, graphStory)
	code, out, errOut := runCmd(t, "graph", dir)
	if code != 0 || !strings.Contains(out, "flowchart LR") || !strings.Contains(out, `s_a -->|"go<br>[world.x == #34;y#124;z#34;]"| s_b`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "graph", filepath.Join(dir, "app.yaml"), "--format", "dot")
	if code != 0 || !strings.HasPrefix(out, "digraph kitsoki {") || !strings.Contains(out, `s_a -> s_b [label="go\n[world.x == \"y|z\"]"];`) {
		t.Fatalf("dot: exit %d\n%s", code, out)
	}
	// -o writes the file whole; nothing on stdout
	file := filepath.Join(t.TempDir(), "g.mmd")
	code, out, _ = runCmd(t, "graph", dir, "-o", file)
	if b, err := os.ReadFile(file); code != 0 || out != "" || err != nil || !strings.Contains(string(b), "flowchart LR") {
		t.Fatalf("-o: exit %d, stdout %q, file %q %v", code, out, b, err)
	}
}

func TestGraphCommandErrors(t *testing.T) {
	dir := writeStory(t, graphStory)
	broken := writeStory(t, "app: {id: x}\nroot: nowhere\nstates:\n  a: {}\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"graph", dir, "--format", "png"}, 2, "--format png: unknown format; use mermaid, dot or svg"},
		{[]string{"graph", dir, "--depth", "-1"}, 2, "--depth -1: must be 0"},
		{[]string{"graph", dir, "--state", "bb"}, 2, "--state bb: the story has no such state; did you mean `b`?"},
		{[]string{"graph", filepath.Join(dir, "missing")}, 2, "no such file or directory"},
		{[]string{"graph", "-"}, 2, "stories are not read from standard input"},
		{[]string{"graph", broken}, 1, "the story does not load"},
		{[]string{"graph"}, 2, "accepts 1 arg"},
	} {
		code, out, errOut := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d (want %d)\nstdout %q\nstderr %q (want %q)", c.args, code, c.code, out, errOut, c.want)
		}
	}
}

// --format svg without Graphviz on PATH is an environment error naming
// the program and the way out.
func TestGraphSVGWithoutDot(t *testing.T) {
	dir := writeStory(t, graphStory)
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := runCmd(t, "graph", dir, "--format", "svg")
	if code != 2 || out != "" || !strings.Contains(errOut, "needs Graphviz's dot program on PATH") || !strings.Contains(errOut, "--format dot") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}

// A drawing over Mermaid's limits is written with a warning that says how
// to narrow it.
func TestGraphWarnsOverMermaidLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("app: {id: wide}\nintents:\n  go: {description: go}\nroot: s0\nstates:\n")
	for i := range 300 {
		b.WriteString("  s" + itoa(i) + ":\n    on:\n      go:\n        - when: world.n > 1\n          target: s" + itoa((i+1)%300) + "\n        - target: s" + itoa((i+7)%300) + "\n")
	}
	b.WriteString("world:\n  n: {type: int, default: 0}\n")
	dir := writeStory(t, b.String())
	code, out, errOut := runCmd(t, "graph", dir)
	if code != 0 || !strings.Contains(out, "flowchart LR") || !strings.Contains(errOut, "kitsoki: warning:") || !strings.Contains(errOut, "over Mermaid's limit of 500") || !strings.Contains(errOut, "--depth or --state") {
		t.Fatalf("exit %d\nstderr %q", code, errOut)
	}
}
