package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestAppendToFileFrontMatterReadsBack: whatever the file's stem, its
// front matter reads back as that string title (never an int, a date, a
// bool or a broken document), as upstream's marshalled map does.
func TestAppendToFileFrontMatterReadsBack(t *testing.T) {
	stems := []string{"bug", "0x1F", "2001-12-14", "1_000", "0o17", "0b101", "yes", "on", "Null", "~",
		"1e3", "12:30", "+1", ".5", ".inf", "-x", "a: b", "a #b", "'q'", `"dq"`, "[x]", "{y}", "&a", "*b", "!t", "|", ">",
		"% x", "@x", "`x", "é ü", "tab\tx", "multi\nline", " lead", "trail ", "---", "..."}
	for _, stem := range stems {
		wd := t.TempDir()
		env := Env{WorkDir: wd, Now: fixedClock()}
		file := filepath.Join("bugs", stem+".md")
		mustOK(t, appendFileHandler{}, env, map[string]any{"thread": file, "body": "b"})
		b, err := os.ReadFile(filepath.Join(wd, file))
		if err != nil {
			t.Fatal(err)
		}
		doc, ok := strings.CutPrefix(string(b), "---\n")
		front, _, ok2 := strings.Cut(doc, "\n---\n")
		if !ok || !ok2 {
			t.Errorf("%q: no front matter in %q", stem, b)
			continue
		}
		var got map[string]any
		if err := yaml.Unmarshal([]byte(front), &got); err != nil {
			t.Errorf("%q: front matter %q does not parse: %v", stem, front, err)
			continue
		}
		if got["title"] != stem || got["status"] != "open" || got["filed_at"] != "2026-12-01T09:19:52Z" {
			t.Errorf("%q: front matter %q reads back as %#v", stem, front, got)
		}
	}
}
