//go:build unix

package expr

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"kitsoki/internal/safefile"
)

// TestIncludeOfASpecialFileSaysWhy: an include of a FIFO, of a file past
// the story file cap, or of /dev/zero through a link is refused unread
// with the reason, the including file, the name as written and the fix;
// pongo2 alone said "unable to resolve template", as for a missing file.
func TestIncludeOfASpecialFileSaysWhy(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.pongo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.pongo")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.pongo"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(safefile.Story + 1); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	big.Close()
	for name, want := range map[string][]string{
		"fifo.pongo": {"not a regular file (a FIFO)", "point it at a file"},
		"big.pongo":  {"over the 4 MiB cap", "split it or shrink it"},
		"zero.pongo": {"symbolic link leading outside the template roots", "include a file of the story"},
	} {
		t.Run(name, func(t *testing.T) {
			view := filepath.Join(dir, "v-"+name)
			if err := os.WriteFile(view, []byte(`hi {% include "`+name+`" %}`), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := NewPongoLoader(dir).CompileFile(view)
			if err == nil {
				t.Fatal("compiled")
			}
			msg := err.Error()
			for _, w := range append(want, view, `template path "`+name+`" is refused`) {
				if !strings.Contains(msg, w) {
					t.Errorf("the error lacks %q: %s", w, msg)
				}
			}
			if strings.Contains(msg, "unable to resolve") {
				t.Errorf("the error is pongo2's bare one: %s", msg)
			}
			if name == "zero.pongo" && !errors.Is(err, ErrOutsideRoots) {
				t.Errorf("a link out is not ErrOutsideRoots: %v", err)
			}
		})
	}
}

// TestSpecialFileIncludeNamesItsTag: the refusal of a FIFO included two
// files down names the tag that includes it and the one above.
func TestSpecialFileIncludeNamesItsTag(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.pongo"), 0o644); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "mid.pongo")
	top := filepath.Join(dir, "top.pongo")
	for p, text := range map[string]string{mid: "m\n{% include \"fifo.pongo\" %}", top: "{% include 'mid.pongo' %}"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := NewPongoLoader(dir).CompileFile(top)
	want := "pongo2 " + mid + ":2:1 (included from " + top + ":1:1): template path \"fifo.pongo\" is refused: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "a FIFO") {
		t.Errorf("error\n %v\nwant it to start\n %s", err, want)
	}
}
