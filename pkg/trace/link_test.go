//go:build unix

package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symbolic link where a trace goes (a repository can plant one in
// --trace-dir or the sessions folder) is refused, whether it leads
// nowhere yet, to a file outside or to a trace: nothing is created or
// truncated through it.
func TestCreateRefusesALinkAtThePath(t *testing.T) {
	outside := t.TempDir()
	existing := filepath.Join(outside, "old.jsonl")
	w, err := CreateWith(existing, Header{AppID: "a"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	before, _ := os.ReadFile(existing)
	for name, target := range map[string]string{
		"dangling": filepath.Join(outside, "new.jsonl"),
		"a trace":  existing,
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "flows__a.jsonl")
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		if _, err := CreateWith(p, Header{AppID: "b"}, Options{}); !errors.Is(err, errTraceLink) {
			t.Errorf("%s: err %v, want the link refused", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new.jsonl")); err == nil {
		t.Error("a trace was created through the dangling link")
	}
	if after, _ := os.ReadFile(existing); string(after) != string(before) {
		t.Error("the trace the link leads to was rewritten")
	}
}

// agent-prompts/ beside a trace that is a symbolic link is not written
// through: the prompt's sidecar is refused and nothing lands where it leads.
func TestPromptsFolderLinkRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, promptsDir)); err != nil {
		t.Fatal(err)
	}
	w, err := CreateWith(filepath.Join(dir, "run.jsonl"), Header{AppID: "a"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.PromptRef("c1", strings.Repeat("p", sidecarThreshold+1)); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("err %v, want the linked folder refused", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
}
