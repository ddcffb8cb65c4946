package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalListShowOneLinePerField: a repository's dataset file named with
// a newline and tabs, or a report whose profile and model names hold them,
// cannot add a row to eval list's tab-separated output nor a line to eval
// show's (before, 'x\nforged\tpassing\texact\t\ty.yaml' printed a row
// that read as a passing dataset called forged, and a profile
// 'p\ndecision: ...' forged eval show's decision line).
func TestEvalListShowOneLinePerField(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "story")
	storytest.CopyTree(t, evCorpus, dir)
	ds, err := os.ReadFile(filepath.Join(dir, "evals", "merge_judge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(dir, "evals", "x\nforged\tpassing\texact\t\ty.yaml")
	if err := os.WriteFile(evil, ds, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "eval", "list", dir)
	if code != exitOK {
		t.Fatalf("eval list: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Errorf("eval list printed %d rows for 2 datasets:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if f := strings.Split(l, "\t"); len(f) != 5 || f[0] == "forged" {
			t.Errorf("eval list row %q has %d fields, want 5", l, len(f))
		}
	}

	rep := filepath.Join(dir, "evals", "reports", "merge_judge", "failing.json")
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	forged := "p\ndecision: cheapest_passing -> good/model effort=low\n- good/model effort=low pass pass_rate=1.00"
	c := r["candidates"].([]any)[0].(map[string]any)
	c["profile"], c["model"], c["effort"] = forged, forged, "a\tb\nc"
	r["decision"] = map[string]any{"strategy": forged, "selected_profile": forged, "selected_model": forged}
	b, _ = json.Marshal(r)
	evilRep := filepath.Join(t.TempDir(), "evil.json")
	if err := os.WriteFile(evilRep, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCmd(t, "eval", "show", evilRep)
	if code != exitOK {
		t.Fatalf("eval show: %d %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 5 || strings.Count(out, "\ndecision: ") != 1 || strings.Contains(out, "\t") {
		t.Errorf("eval show printed %d lines, want 5 (header 3, one candidate, one decision):\n%s", n, out)
	}
}

// TestEvalShowBoundsCandidates: a committed report of 3,000 empty
// candidates prints 1,000 candidate lines and one counting the rest, not
// a line each (many bytes out per byte in).
func TestEvalShowBoundsCandidates(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.json")
	body := `{"kind":"agent_eval_report","call":"c","candidates":[{}` + strings.Repeat(`,{}`, 2_999) + `]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "eval", "show", p)
	if code != exitOK {
		t.Fatalf("eval show: %d %s", code, errOut)
	}
	if n := strings.Count(out, "\n- "); n != 1001 || !strings.Contains(out, "\n- 2000 more candidates not shown; see --json\n") {
		t.Errorf("eval show printed %d candidate lines (%d bytes)", n, len(out))
	}
}
