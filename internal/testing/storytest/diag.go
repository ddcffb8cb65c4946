package storytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// Render prints diagnostics one a line, for a test's failure message.
func Render(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// NoEnv is an environment lookup that finds no variable.
func NoEnv(string) (string, bool) { return "", false }

// Subdirs lists the directories directly under dir, failing t unless there
// are want of them.
func Subdirs(t testing.TB, dir string, want int) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) != want {
		t.Fatalf("expected %d stories in %s, found %d", want, dir, len(out))
	}
	return out
}
