package host

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestAppendToFileFrontMatterReadsBack: whatever the file's stem, its
// front matter reads back (as a bug file is read, parseTicket) as that
// string title (never an int, a date, a bool or a broken document), as
// upstream's marshalled map does; but .inf, which upstream writes plain
// and reads as a float (conformance frontmatter-scalars).
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
		tk, err := parseTicket(b)
		if err != nil || tk.front == nil {
			t.Errorf("%q: %q does not read back: %v", stem, b, err)
			continue
		}
		var want any = stem
		if stem == ".inf" {
			want = math.Inf(1)
		}
		if got := tk.front; got["title"] != want || got["status"] != "open" || got["filed_at"] != "2026-12-01T09:19:52Z" {
			t.Errorf("%q: %q reads back as %#v", stem, b, got)
		}
	}
}

// TestAppendToFileRewrites: a second append writes the file back whole as
// upstream does, the first comment's header followed by one more blank
// line (conformance append-file-rewrite); a file without front matter
// gets an empty one, and a header of a time alone is a time.
func TestAppendToFileRewrites(t *testing.T) {
	wd := t.TempDir()
	env := Env{WorkDir: wd, Now: fixedClock()}
	for range 2 {
		mustOK(t, appendFileHandler{}, env, map[string]any{"thread": "b.md", "body": "x", "author": "me"})
	}
	const at = "2026-12-01T09:19:52Z"
	want := "---\nfiled_at: \"" + at + "\"\nstatus: open\ntitle: b\n---\n# b\n\n## Comment " + at + " by me\n\n\nx\n\n## Comment " + at + " by me\n\nx\n"
	if got, _ := os.ReadFile(filepath.Join(wd, "b.md")); string(got) != want {
		t.Errorf("twice:\n%q\nwant\n%q", got, want)
	}
	if err := os.WriteFile(filepath.Join(wd, "p.md"), []byte("## Comment 2020-01-01T10:00:00+02:00\n\nA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustOK(t, appendFileHandler{}, env, map[string]any{"thread": "p.md", "body": "x", "author": "me"})
	want = "---\n{}\n---\n\n## Comment 2020-01-01T08:00:00Z by \n\n\nA\n\n## Comment " + at + " by me\n\nx\n"
	if got, _ := os.ReadFile(filepath.Join(wd, "p.md")); string(got) != want {
		t.Errorf("plain:\n%q\nwant\n%q", got, want)
	}
}

// TestAppendToFileFrontMatterTooDeep: a bug file whose front matter nests
// past yamlnode.MaxDepth (written, or through a chain of aliases) is a
// domain error naming its line, and the file is left as it was. Written
// back, each level indented its whole subtree again: 9,000 nested
// mappings in a 45 KB file (which host.artifacts_dir can write under
// --sandbox) took 57 s and 875 MB in one call, past --timeout, and
// wrote 81 MB.
func TestAppendToFileFrontMatterTooDeep(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("a0: &a0 [x]\n")
	for i := 1; i < 300; i++ {
		fmt.Fprintf(&chain, "a%d: &a%d [*a%d]\n", i, i, i-1)
	}
	for name, front := range map[string]string{
		"nested": "k: " + strings.Repeat("{a: ", 2000) + "1" + strings.Repeat("}", 2000) + "\n",
		"chain":  chain.String(),
	} {
		wd := t.TempDir()
		text := "---\n" + front + "---\n# b\n"
		storytest.WriteFile(t, filepath.Join(wd, "b.md"), text)
		wantDomainErr(t, appendFileHandler{}, Env{WorkDir: wd, Now: fixedClock()}, map[string]any{"thread": "b.md", "body": "x"},
			name, "host.append_to_file: read: bug file: front matter line ")
		if got, _ := os.ReadFile(filepath.Join(wd, "b.md")); string(got) != text {
			t.Errorf("%s: the file was rewritten (%d bytes, was %d)", name, len(got), len(text))
		}
	}
}
