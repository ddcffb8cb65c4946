package flowtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The diff --update prints is one GNU patch applies: the old file patched
// with it is the new one, for edits that add, remove and keep lines, near
// each other (one hunk) and far apart (two).
func TestUpdateDiffApplies(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch program here")
	}
	var old strings.Builder
	for i := 1; i <= 30; i++ {
		old.WriteString("k" + strconv.Itoa(i) + ": line " + strings.Repeat("x", i%3) + "\n")
	}
	src := []byte("w:\n  obj:\n    a: 1\n    b: 2\n" + old.String() + "z: last\n")
	docs := mappingDocs(src)
	if len(docs) != 1 {
		t.Fatal("the test file does not parse")
	}
	s := docs[0]
	var edits []edit
	for _, c := range []struct {
		path []step
		want any
	}{
		{keys("w", "obj"), map[string]any{"c": []any{"p", "q", "r"}}},
		{keys("z"), "changed"},
	} {
		n, flow, err := s.node(c.path)
		if err != nil {
			t.Fatal(err)
		}
		es, err := s.rewrite(n, c.path, c.want, flow)
		if err != nil {
			t.Fatal(err)
		}
		edits = append(edits, es...)
	}
	fu := &FileUpdate{Path: "f.yaml", Old: src, New: applyEdits(src, edits), edits: edits}
	var diff strings.Builder
	fu.WriteDiff(&diff)
	if n := strings.Count(diff.String(), "\n@@ "); n != 2 {
		t.Errorf("%d hunks, want 2:\n%s", n, diff.String())
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(patch, "--silent", "--batch", path)
	cmd.Stdin = strings.NewReader(diff.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s\n%s", err, out, diff.String())
	}
	if got, _ := os.ReadFile(path); string(got) != string(fu.New) {
		t.Errorf("patched file\n%s\nwant\n%s\ndiff\n%s", got, fu.New, diff.String())
	}
}
