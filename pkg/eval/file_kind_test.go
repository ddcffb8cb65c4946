package eval

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFileKind(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ text, want string }{
		"report.json":  {`{"eval": "x", "kind": "agent_eval_report", "n": 1}`, "agent_eval_report"},
		"dataset.yaml": {"# a dataset\ncall: c\nkind: \"agent_eval\"\nexamples: []\n", "agent_eval"},
		"trace.jsonl":  {`{"t":"session.start"}` + "\n", ""},
		"nested.json":  {`{"a": {"kind": "agent_eval"}}`, ""},
		"story.yaml":   {"states:\n  a: {}\n", ""},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := FileKind(p); got != tc.want {
			t.Errorf("%s: FileKind = %q, want %q", name, got, tc.want)
		}
	}
	if got := FileKind(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("a missing file: FileKind = %q, want empty", got)
	}
}
