package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

// What run, eval and trace print of a world value, a dataset's text or a
// trace's fields is clipped as a finding's message is (diag.ClipMessage):
// a repository under test chooses those, and one value of a megabyte
// must not print a megabyte on every line that names it.

// clipBig is a value far past diag.MaxMessage.
var clipBig = strings.Repeat("Q", 32<<10)

// clipped fails the test when what a command printed is larger than
// limit or does not say what it left out.
func clipped(t *testing.T, what, printed string, limit int) {
	t.Helper()
	if len(printed) > limit {
		t.Errorf("%s printed %d bytes (at most %d expected): %.300s", what, len(printed), limit, printed)
	}
	if !strings.Contains(printed, "bytes left out") {
		t.Errorf("%s does not say what it left out: %.300s", what, printed)
	}
}

func TestRunClipsErrorsQuotingWorldValues(t *testing.T) {
	// The target renders to the world value: the run rests in a state of
	// that name, quoted by the note entering it and by the error.
	dir := storytest.TempTree(t, map[string]string{
		"s/app.yaml": `app: { id: clip, version: 0.1.0 }
world:
  big: { type: string, default: "x" }
intents: { go: {} }
root: s0
states:
  s0:
    view: "S0"
    on:
      go: [ { target: "{{ world.big }}" } ]
`,
		"w.yaml": "big: " + clipBig + "\n",
	})
	out, errOut, code := hostile(t, dir, "run", "s", "--world-file", "w.yaml", "--intent", "go", "--trace", "t.jsonl")
	if code != exitFinding || !strings.Contains(errOut, "the run rested in state") {
		t.Fatalf("exit %d\n%.500s\n%.500s", code, out, errOut)
	}
	clipped(t, "run", out+errOut, 4*diag.MaxMessage)
	if !strings.HasSuffix(errOut, "mark it terminal: true if the run should end there\n") {
		t.Errorf("the clipped error lost its fix: %.300q", errOut[max(0, len(errOut)-300):])
	}

	out, _, _ = hostile(t, dir, "run", "s", "--world-file", "w.yaml", "--intent", "go", "--trace", "t2.jsonl", "--json")
	var res struct{ Error, State string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.State != clipBig { // the state and the world are values, kept whole
		t.Errorf("--json state is %d bytes, want the world value's %d", len(res.State), len(clipBig))
	}
	clipped(t, "run --json's error", res.Error, 2*diag.MaxMessage)
}

func TestEvalClipsFindingsQuotingDatasetText(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	ds := filepath.Join(dir, "evals", "merge_judge.yaml")
	b, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "examples:")
	var ex strings.Builder
	for i := range 8 {
		// every finding of an example names it
		fmt.Fprintf(&ex, "  - name: *big\n    x-%d: 1\n    args: { pr_id: \"1\" }\n    expect: { verdict: pass, intent: accept }\n", i)
	}
	doc := strings.Replace(head, "kind: agent_eval", "kind: agent_eval\nx-pad: &big "+clipBig, 1) + "examples:\n" + ex.String()
	if err := os.WriteFile(ds, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"eval", "show", ds}, {"eval", "run", ds, "--no-progress"}} {
		out, errOut, _ := hostile(t, "", args...)
		clipped(t, strings.Join(args[:2], " "), out+errOut, 40*diag.MaxMessage)
	}
}

func TestTraceReadersClipLongFields(t *testing.T) {
	// Every string of a real trace's events, the call ids and states
	// included, made 32 KiB longer.
	b, err := os.ReadFile(trTriage)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		for k, v := range ev {
			if k != "kind" && k != "ts" && k != "written_at" {
				ev[k] = bloat(v)
			}
		}
		out, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(out))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// show prints some 40 lines, the others a few
	for sub, limit := range map[string]int{"show": 64 * diag.MaxMessage, "stats": 4 * diag.MaxMessage, "calls": 4 * diag.MaxMessage} {
		out, errOut, code := hostile(t, dir, "trace", sub, path)
		if code != 0 {
			t.Fatalf("trace %s: exit %d\n%.500s", sub, code, errOut)
		}
		if len(out) > limit {
			t.Errorf("trace %s printed %d bytes of a trace whose every field is %d bytes long", sub, len(out), len(clipBig))
		}
	}
}

// bloat appends clipBig to every string of v but a blob reference.
func bloat(v any) any {
	switch v := v.(type) {
	case string:
		return v + clipBig
	case []any:
		for i := range v {
			v[i] = bloat(v[i])
		}
	case map[string]any:
		for k, x := range v {
			if k != "$kitsoki_blob" {
				v[k] = bloat(x)
			}
		}
	}
	return v
}

// evBigCall is evStory whose call is named by clipBig, in the story and
// the dataset.
func evBigCall(t *testing.T) (dir, ds, cas string) {
	t.Helper()
	dir, ds, cas = evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	for _, f := range []string{filepath.Join(dir, "app.yaml"), ds} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(strings.Replace(string(b), "id: pick", "id: "+clipBig, 1), "call: pick", "call: "+clipBig, 1)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, ds, cas
}

// TestEvalClipsCellsNamingDatasetText: eval list, show and run print a
// dataset's call (and a report's names) in fields of one line, clipped.
func TestEvalClipsCellsNamingDatasetText(t *testing.T) {
	dir, ds, cas := evBigCall(t) // -o: no reports/<call>/ past the name limit
	for _, args := range [][]string{{"eval", "run", "--cassette", cas, "--no-progress", "-o", filepath.Join(dir, "r.json"), ds}, {"eval", "show", ds}, {"eval", "list", dir}} {
		out, errOut, code := hostile(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%.500s", args[:2], code, errOut)
		}
		clipped(t, strings.Join(args[:2], " "), out+errOut, 4*diag.MaxMessage)
	}
}
