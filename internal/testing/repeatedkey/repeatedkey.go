// Package repeatedkey checks a YAML reader against the existing engine's
// verdicts on files with a key given twice (a testdata dir's upstream.txt,
// one line per file: "NAME exit 0 PASS" or "NAME exit 2 [L:C] mapping key
// "k" already defined at [L:C]" / "... duplicate key "k""). It is
// test-only: it runs the reader it is given and never the existing engine.
package repeatedkey

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Reader is what a check needs of one file kind.
type Reader struct {
	// Dir holds the files and upstream.txt; MinLines guards against a
	// golden cut short.
	Dir      string
	MinLines int
	// What names the file kind in the refusal ("cassette", "recording").
	What string
	// Parse reads one file as the product does.
	Parse func(path string, data []byte) error
	// Place is the refusal's prefix naming the file, line and column.
	Place func(path, line, col string) string
}

var verdict = regexp.MustCompile(`^(\S+) exit (?:0 PASS|2 \[(\d+):(\d+)\] (?:mapping|duplicate) key ("[^"]*")(?: already defined at \[(\d+):(\d+)\])?)$`)

// Check runs r over every file upstream.txt names: a file upstream read
// loads, and one it refused is refused at upstream's place, naming the
// earlier key (written twice) or the key (through a merge or an alias).
func Check(t *testing.T, r Reader) {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join(r.Dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < r.MinLines {
		t.Fatalf("upstream.txt has %d lines, want at least %d", len(lines), r.MinLines)
	}
	for _, l := range lines {
		m := verdict.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("upstream.txt: unread line %q", l)
		}
		t.Run(m[1], func(t *testing.T) {
			path := filepath.Join(r.Dir, m[1])
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			err = r.Parse(path, data)
			if m[2] == "" {
				if err != nil {
					t.Errorf("upstream reads it; ours: %v", err)
				}
				return
			}
			want := r.Place(path, m[2], m[3])
			if m[5] != "" {
				want += fmt.Sprintf("mapping key %s already defined at line %s, column %s; the existing engine refuses the whole %s: keep one of them", m[4], m[5], m[6], r.What)
			} else {
				want += "key " + m[4]
			}
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %v\nwant %s…", err, want)
			}
		})
	}
}
