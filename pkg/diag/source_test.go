package diag

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
)

// WriteHuman never reads a file by its path: with no Source it quotes no
// line, and RootSource reads through its root, so a file swapped for a
// link leading out between two calls has nothing outside quoted.
func TestSnippetNeverReadByPath(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	if err := os.Mkdir(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	app, outside := filepath.Join(proj, "app.yaml"), filepath.Join(base, "secret")
	if err := os.WriteFile(app, []byte("name: inside\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("OUTSIDE-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ds := []Diagnostic{{File: app, Line: 1, Col: 1, Severity: Error, Rule: "r", Message: "m"}}
	human := func(src func(string) ([]byte, bool)) string {
		var b bytes.Buffer
		if err := WriteHuman(&b, ds, HumanOptions{Snippet: true, Source: src}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if out := human(nil); strings.Contains(out, " | ") {
		t.Fatalf("no Source, yet a line quoted:\n%s", out)
	}
	src := RootSource(nil, safefile.NewRoot(proj))
	if out := human(src); !strings.Contains(out, "1 | name: inside") {
		t.Fatalf("the file inside not quoted:\n%s", out)
	}
	if err := os.Remove(app); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, app); err != nil {
		t.Fatal(err)
	}
	if out := human(src); strings.Contains(out, "SECRET") || strings.Contains(out, " | ") {
		t.Fatalf("a file linked out quoted:\n%s", out)
	}
	kept := RootSource(func(string) ([]byte, bool) { return []byte("name: kept\n"), true }, safefile.NewRoot(proj))
	if out := human(kept); !strings.Contains(out, "1 | name: kept") {
		t.Fatalf("the kept bytes not quoted:\n%s", out)
	}
	if out := human(RootSource(nil)); strings.Contains(out, " | ") {
		t.Fatalf("a file no root holds quoted:\n%s", out)
	}
}
