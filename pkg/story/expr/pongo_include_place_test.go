package expr

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedIncludeNamesItsTag: a refused include names the tag's own
// file, line and column, and for a nested one each tag that included that
// file, innermost first; Line and Col point at the first tag in the text
// compiled. Before, the error named only the including file, and the
// story's position was that of the view as a whole.
func TestRefusedIncludeNamesItsTag(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mid := write("partials/mid.pongo", "mid\n\n  é {% include '../../outside.pongo' %}\n")
	top := write("main.pongo", "one\ntwo\n{%- include \"partials/mid.pongo\" %}\n")

	l := NewPongoLoader(dir)
	_, err := l.CompileFile(top)
	ee, ok := errors.AsType[*Error](err)
	if !ok || !errors.Is(err, ErrOutsideRoots) {
		t.Fatalf("compiled: %v", err)
	}
	want := "pongo2 " + mid + ":3:5 (included from " + top + ":3:1): template path \"../../outside.pongo\" is refused"
	if !strings.HasPrefix(ee.Msg, want) {
		t.Errorf("message\n %s\nwant it to start\n %s", ee.Msg, want)
	}
	if ee.Line != 3 || ee.Col != 1 {
		t.Errorf("place %d:%d, want 3:1 (the tag in main.pongo)", ee.Line, ee.Col)
	}

	// in a view held in a string: the place is in the string
	src := "hello\n\tworld {% include \"/etc/hostname\" %}"
	_, err = NewPongoLoader(dir).Compile(src)
	if ee, ok = errors.AsType[*Error](err); !ok || ee.Line != 2 || ee.Col != 8 || !strings.HasPrefix(ee.Msg, "pongo2 <string>:2:8: template path \"/etc/hostname\" is refused: absolute paths") {
		t.Errorf("a string view's refusal: %v (at %d:%d); want it at <string>:2:8", err, ee.Line, ee.Col)
	}
}
