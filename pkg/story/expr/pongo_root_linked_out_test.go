package expr

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedRootLinkedOutVouchesForNothing: a template root that lies
// inside another root (a story's prompts/ beside the story directory) but
// is itself a symlink leading out vouched, as a root, for every file it
// led to: {% include "prompts/secret.md" %} rendered the outside file. It
// is refused now, and so is a read of it by its path and an include of a
// file absent there; a bare name searched there is missing whether or not
// a file is behind the link (it told before); a nested root whose
// link stays inside the outer root still serves its files.
func TestNestedRootLinkedOutVouchesForNothing(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("NESTED-ROOT-SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "prompts")); err != nil {
		t.Fatal(err)
	}
	l := NewPongoLoader(dir, filepath.Join(dir, "prompts"))
	for _, name := range []string{"prompts/secret.md", filepath.Join(dir, "prompts", "secret.md"), "prompts/absent.md"} {
		tpl, err := l.Compile(`{% include "` + name + `" %}`)
		if !errors.Is(err, ErrOutsideRoots) {
			out := ""
			if err == nil {
				out, _ = tpl.Render(Env{})
			}
			t.Errorf("include %q: %v %q; want the refusal", name, err, out)
		}
	}
	// a bare name searched in the dropped root: missing, present or not
	var bare []string
	for _, name := range []string{"secret.md", "absent.md"} {
		tpl, err := l.Compile(`{% include "` + name + `" %}`)
		if err == nil {
			out, _ := tpl.Render(Env{})
			t.Fatalf("include %q read %q", name, out)
		}
		bare = append(bare, strings.ReplaceAll(err.Error(), name, "NAME"))
	}
	if bare[0] != bare[1] {
		t.Errorf("a bare name tells what exists behind the link:\n%s\n%s", bare[0], bare[1])
	}
	if _, err := l.CompileFile(filepath.Join(dir, "prompts", "secret.md")); err == nil || strings.Contains(err.Error(), "NESTED-ROOT-SECRET") {
		t.Errorf("the file under the nested root linked out was read: %v", err)
	}

	in := t.TempDir()
	if err := os.MkdirAll(filepath.Join(in, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "real", "ok.md"), []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(in, "prompts")); err != nil {
		t.Fatal(err)
	}
	l = NewPongoLoader(in, filepath.Join(in, "prompts"))
	tpl, err := l.Compile(`{% include "ok.md" %}`)
	if err != nil {
		t.Fatalf("a nested root linked inside: %v", err)
	}
	if out, err := tpl.Render(Env{}); err != nil || out != "fine" {
		t.Fatalf("render: %q %v", out, err)
	}
}
