package cmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// kitsoki run waits for a background job, reports its end in the human
// log and in --json (jobs, inbox), and writes its completion turn.
func TestRunWaitsForBackgroundJobs(t *testing.T) {
	ex := filepath.Join("..", "examples", "release-notes")
	tr := filepath.Join(t.TempDir(), "rn.jsonl")
	var out, errb bytes.Buffer
	if code := Run([]string{"run", ex, "--json", "--trace", tr}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var sum struct {
		State string
		Jobs  []struct{ ID, Namespace, Status string }
		Inbox []struct{ Severity string }
		World map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.State != "published" || len(sum.Jobs) != 1 || sum.Jobs[0].Status != "done" || sum.Jobs[0].Namespace != "host.run" {
		t.Fatalf("summary %+v", sum)
	}
	if sum.World["words"] != "8" || sum.World["draft__version"] != "1.4.0" {
		t.Errorf("world %v", sum.World)
	}
	if len(sum.Inbox) != 2 || sum.Inbox[0].Severity != "info" || sum.Inbox[1].Severity != "success" {
		t.Errorf("inbox %+v", sum.Inbox)
	}
	got := countKinds(readTrace(t, tr))
	if got["scheduler.submitted"] != 1 || got["scheduler.completed"] != 1 {
		t.Errorf("trace kinds %v", got)
	}
	out.Reset()
	if code := Run([]string{"run", ex, "--trace", filepath.Join(t.TempDir(), "h.jsonl")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"→ draft.collect", "submitted as job", "(host.run) finished", "terminal published"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, out.String())
		}
	}
}
