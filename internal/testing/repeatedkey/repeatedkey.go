// Package repeatedkey checks a YAML reader against the existing engine's
// verdicts on files with a key given twice (a testdata dir's upstream.txt,
// one line per file: "NAME exit N" and what upstream printed, a refusal
// placed by "[L:C]" and naming "mapping key "k" already defined at [L:C]"
// or "duplicate key "k""). It is test-only: it runs the reader it is given
// and never the existing engine.
package repeatedkey

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Verdict is upstream's verdict on one file of the dir.
type Verdict struct {
	Path string // the file, joined to the dir
	Data []byte
	// Line and Col place upstream's refusal ("" when it read the file);
	// Msg is the refusal's text after them.
	Line, Col, Msg string
	// Key is the key the refusal names, quoted ("" when none); FirstLine
	// and FirstCol place its earlier writing when it was written twice.
	Key, FirstLine, FirstCol string
}

var (
	verdict = regexp.MustCompile(`^(\S+) exit \d(?: (.*))?$`)
	refusal = regexp.MustCompile(`\[(\d+):(\d+)\] (.*)$`)
	keyText = regexp.MustCompile(`(?:mapping|duplicate) key ("[^"]*")(?: already defined at \[(\d+):(\d+)\])?`)
)

// Each calls fn in a subtest for every file dir/upstream.txt gives a
// verdict on; minLines guards against a golden cut short.
func Each(t *testing.T, dir string, minLines int, fn func(t *testing.T, v Verdict)) {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < minLines {
		t.Fatalf("upstream.txt has %d lines, want at least %d", len(lines), minLines)
	}
	for _, l := range lines {
		m := verdict.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("upstream.txt: unread line %q", l)
		}
		t.Run(m[1], func(t *testing.T) {
			v := Verdict{Path: filepath.Join(dir, m[1])}
			if v.Data, err = os.ReadFile(v.Path); err != nil {
				t.Fatal(err)
			}
			if r := refusal.FindStringSubmatch(m[2]); r != nil {
				v.Line, v.Col, v.Msg = r[1], r[2], r[3]
				if k := keyText.FindStringSubmatch(v.Msg); k != nil {
					v.Key, v.FirstLine, v.FirstCol = k[1], k[2], k[3]
				}
			}
			fn(t, v)
		})
	}
}

// Reader is what Check needs of one file kind.
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

// Check runs r over every file upstream.txt names: a file upstream read
// loads, and one it refused is refused at upstream's place, naming the
// earlier key (written twice) or the key (through a merge or an alias).
func Check(t *testing.T, r Reader) {
	t.Helper()
	Each(t, r.Dir, r.MinLines, func(t *testing.T, v Verdict) {
		err := r.Parse(v.Path, v.Data)
		switch {
		case v.Line == "":
			if err != nil {
				t.Errorf("upstream reads it; ours: %v", err)
			}
			return
		case v.Key == "":
			t.Fatalf("upstream.txt: the refusal %q names no key", v.Msg)
		}
		want := r.Place(v.Path, v.Line, v.Col)
		if v.FirstLine != "" {
			want += fmt.Sprintf("mapping key %s already defined at line %s, column %s; the whole %s is refused: keep one of them", v.Key, v.FirstLine, v.FirstCol, r.What)
		} else {
			want += "key " + v.Key
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v\nwant %s…", err, want)
		}
	})
}
