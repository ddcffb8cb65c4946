package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
)

// A story file over the 4 MiB cap of prompts and schemas loads (story YAML
// has its own 64 MiB cap); one over 64 MiB is refused before it is read,
// with an error naming the file, its size and the cap.
func TestStoryYAMLCap(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("app: {id: big}\nroot: s0\nstates:\n")
	for b.Len() < int(safefile.Story)+(1<<20) {
		b.WriteString("  # " + strings.Repeat("padding ", 12) + "\n")
	}
	b.WriteString("  s0:\n    terminal: true\n  s1:\n    terminal: true\n")
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := Load(dir, Options{})
	if st == nil || len(st.States) != 2 || diag.HasErrors(ds) {
		t.Fatalf("a %d-byte story did not load: %v\n%s", b.Len(), st != nil, render(ds))
	}

	huge := t.TempDir()
	f, err := os.Create(filepath.Join(huge, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(safefile.StoryYAML + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, ds = Load(huge, Options{})
	if st != nil || len(ds) != 1 || !strings.Contains(ds[0].Message, "64 MiB cap") || !strings.Contains(ds[0].File, "app.yaml") {
		t.Fatalf("a story over the cap was not refused by name and cap:\n%s", render(ds))
	}
}
