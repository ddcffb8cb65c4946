package expr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedRootSwappedAfterTheCheckIsNotRead: a story's prompts/ (a root
// inside the story directory's) swapped for a symlink leading out between
// the loader taking its roots (DropLinkedOut kept prompts/, a real
// directory then) and the read (the rootsTaken seam swaps it there) is
// not read through: before, readTemplate opened prompts/ by its path, so
// the include rendered the outside file. The file is read through the
// story directory's root, whose open refuses the link.
func TestNestedRootSwappedAfterTheCheckIsNotRead(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "a.md"), []byte("SWAPPED-ROOT-SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prompts := filepath.Join(dir, "prompts")
	if err := os.Mkdir(prompts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prompts, "a.md"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := NewPongoLoader(dir, prompts)
	swaps := 0
	l.rootsTaken = func() {
		if swaps++; swaps > 1 {
			return
		}
		if err := os.Rename(prompts, filepath.Join(dir, "prompts.old")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, prompts); err != nil {
			t.Error(err)
		}
	}
	tpl, err := l.Compile(`{% include "a.md" %}`)
	if swaps == 0 {
		t.Fatal("the seam never ran: the include was not read through Get")
	}
	out := ""
	if err == nil {
		out, err = tpl.Render(Env{})
	}
	if strings.Contains(out, "SECRET") || (err != nil && strings.Contains(err.Error(), "SECRET")) {
		t.Fatalf("the file behind the swapped root was read: %q %v", out, err)
	}
	if err == nil {
		t.Fatalf("the include rendered %q with no error; want the refusal", out)
	}

	// unswapped, the same include reads the file under prompts/
	l = NewPongoLoader(dir, filepath.Join(dir, "prompts.old"))
	if tpl, err = l.Compile(`{% include "a.md" %}`); err != nil {
		t.Fatal(err)
	}
	if out, err = tpl.Render(Env{}); err != nil || out != "inside" {
		t.Fatalf("render: %q %v", out, err)
	}
}
