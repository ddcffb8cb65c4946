package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/trace"
)

// growStory traces a 200 KB world value again at each go: twelve inputs
// write about 2.4 MB.
var growStory = `app: {id: grow}
intents:
  go: {}
  done: {}
root: a
world:
  t: {type: string, default: "` + strings.Repeat("x", 200_000) + `"}
  n: {type: int, default: 0}
states:
  a:
    on:
      go:
        - target: a
          effects:
            - set: {t: "{{ string(world.n) + world.t }}"}
            - increment: {n: 1}
      done: [{target: end}]
  end:
    terminal: true
`

// A run whose trace passes --trace-max-mib fails naming the event, the
// bound and the fix; its trace ends with a line saying it was cut and
// still reads. With no bound the same run ends.
func TestRunTraceBound(t *testing.T) {
	t.Parallel() // in process, its own temp dirs
	dir := writeStory(t, growStory)
	args := func(tr string, extra ...string) []string {
		a := []string{"run", dir, "--trace", tr}
		for range 12 {
			a = append(a, "--intent", "go")
		}
		return append(append(a, "--intent", "done"), extra...)
	}
	tr := filepath.Join(t.TempDir(), "run.jsonl")
	code, _, stderr := runCmd(t, args(tr, "--trace-max-mib", "1")...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, want := range []string{`append "world.update" event (turn `, `state "a"`, "past their bound of 1 MiB", "trace.truncated", "raise --trace-max-mib"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "trace: trace:") {
		t.Errorf("stderr says trace twice:\n%s", stderr)
	}
	evs := readTrace(t, tr)
	if last := evs[len(evs)-1]; last.Kind != trace.TruncatedKind {
		t.Errorf("the trace ends with %s", last.Kind)
	}
	if code, out, stderr := runCmd(t, "trace", "verify", tr); code != 0 || !strings.Contains(out, "bytes; cut at its size bound: it ends with a trace.truncated line)") {
		t.Errorf("trace verify: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd(t, "trace", "show", tr); code != 0 || !strings.Contains(out, trace.TruncatedKind) {
		t.Errorf("trace show: exit %d\n%s%s", code, out, stderr)
	}

	free := filepath.Join(t.TempDir(), "run.jsonl")
	if code, _, stderr := runCmd(t, args(free, "--trace-max-mib", "0")...); code != 0 {
		t.Errorf("with no bound: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCmd(t, args(free, "--trace-max-mib", "-1")...); code != 2 || !strings.Contains(stderr, "--trace-max-mib -1: give a size in MiB") {
		t.Errorf("a negative bound: exit %d: %s", code, stderr)
	}
}

// kitsoki test: the fixture whose trace passes --trace-max-mib cannot go
// on (exit 2), at the turn, naming the bound and the flag.
func TestTestTraceBound(t *testing.T) {
	t.Parallel() // in process, its own temp dirs
	dir := writeStory(t, growStory)
	fixture := "test_kind: flow\napp: ../app.yaml\ninitial_state: a\nturns:\n" + strings.Repeat("  - intent: {name: go}\n", 12)
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flows", "grow.yaml"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	traces := t.TempDir()
	code, out, stderr := runCmd(t, "test", dir, "--trace-dir", traces, "--trace-max-mib", "1")
	if code != 2 || !strings.Contains(out+stderr, "grow.yaml:10:5: turn 6: the session cannot go on") || !strings.Contains(out+stderr, "past their bound of 1 MiB") || !strings.Contains(out+stderr, "raise --trace-max-mib") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd(t, "test", dir, "--trace-dir", t.TempDir()); code != 0 {
		t.Fatalf("under the default bound: exit %d\n%s%s", code, out, stderr)
	}
}
