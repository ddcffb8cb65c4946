package storytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden compares got with the file at path, or writes it there (making
// its directory) when update is set. regen is the command that rewrites
// the golden, for the messages. A difference reports the first line that
// differs.
func Golden(t testing.TB, path, got string, update bool, regen string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, regen)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s differs from the golden at line %d (%s rewrites it after review):\nwant: %s\ngot:  %s", path, i+1, regen, w, g)
			return
		}
	}
}
