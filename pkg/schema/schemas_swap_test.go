package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemasLinkTargetSwappedOutIsNotRead: schemas/ as an absolute link
// to a directory of the story was resolved, then its resolution opened by
// path: that directory swapped for a link out in between had the outside
// directory opened as schemas/ (its schema compiled, its broken pattern
// quoted) when it existed, and "cannot be opened" when not. It is opened
// through the story's root now: the schemas/ link-out refusal, whatever
// lies outside.
func TestSchemasLinkTargetSwappedOutIsNotRead(t *testing.T) {
	outside := story(t, map[string]string{
		"there/v.json": `{"title": "CANARY", "properties": {"a": {"pattern": "(CANARY"}}}`,
		"empty/.keep":  "",
		"file/notadir": "",
	})
	answers := map[string]string{}
	for _, target := range []string{"there", "empty", "missing", "file/notadir"} {
		dir := story(t, map[string]string{"real/v.json": verdictSchema})
		real := filepath.Join(dir, "real")
		if err := os.Symlink(real, filepath.Join(dir, "schemas")); err != nil {
			t.Fatal(err)
		}
		s := NewCompiler(dir).Session()
		s.files.resolved = func() {
			if err := os.RemoveAll(real); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, target), real); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.Compile("schemas/v.json")
		s.Close()
		if err == nil {
			t.Fatalf("real/ swapped for a link to %s: compiled", target)
		}
		answers[target] = strings.ReplaceAll(err.Error(), dir, "DIR")
	}
	want := answers["there"]
	for target, got := range answers {
		if got != want {
			t.Errorf("a link out to %s:\n%s\nto a directory of schemas:\n%s", target, got, want)
		}
	}
	if strings.Contains(want, "CANARY") || !strings.Contains(want, "is a symlink leading outside the story directory") {
		t.Errorf("want the link-out refusal, nothing quoted: %s", want)
	}
}
