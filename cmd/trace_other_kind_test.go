package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trace command given an eval report or dataset says what the file is
// and which command reads it, after the reader's own line-1 message;
// before, it said only "line 1 is not valid JSON: unexpected end of JSON
// input". A file of no known kind gets the reader's message alone.
func TestTraceOfAnEvalFileNamesEvalShow(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pretty.json":   "{\n  \"eval\": \"pick\",\n  \"kind\": \"agent_eval_report\"\n}\n",
		"one-line.json": `{"kind":"agent_eval_report","eval":"pick"}` + "\n",
		"pick.yaml":     "# a dataset\nkind: agent_eval\napp: ../app.yaml\n",
		"other.json":    "{\n  \"kind\": \"something_else\"\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"pretty.json":   "it is an eval report (kind agent_eval_report), not a JSONL trace: read it with kitsoki eval show ",
		"one-line.json": "it is an eval report (kind agent_eval_report), not a JSONL trace: read it with kitsoki eval show ",
		"pick.yaml":     "it is an eval dataset (kind: agent_eval), not a JSONL trace: read it with kitsoki eval show ",
	} {
		p := filepath.Join(dir, name)
		if code, _, errOut := runCmd(t, "trace", "show", p); code != 1 || !strings.Contains(errOut, want+p+"\n") {
			t.Errorf("trace show %s: exit %d\n%s", name, code, errOut)
		}
		if code, out, _ := runCmd(t, "trace", "verify", p); code != 1 || !strings.Contains(out, p+":1: ") || !strings.Contains(out, want+p+"\n") {
			t.Errorf("trace verify %s: exit %d\n%s", name, code, out)
		}
	}
	p := filepath.Join(dir, "other.json")
	if code, _, errOut := runCmd(t, "trace", "show", p); code != 1 || strings.Contains(errOut, "kitsoki eval") || !strings.Contains(errOut, "line 1 is not valid JSON") {
		t.Errorf("trace show other.json: exit %d\n%s", code, errOut)
	}
}
