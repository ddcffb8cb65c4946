package flowtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestFixtureRepeatedKeyRefused: a flow fixture with a key given twice
// through an alias key where upstream's decoder reads it (a record, the top
// of a map), or written twice anywhere (under a key the fixture does not
// have too), is refused at the place upstream named, as
// testdata/repeated-key-fixture/upstream.txt recorded; one it read (an
// alias key inside a value, or inside an unknown key) runs here too, the
// later value read.
func TestFixtureRepeatedKeyRefused(t *testing.T) {
	dir := filepath.Join("testdata", "repeated-key-fixture")
	golden, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// upstream counts a later document's lines from the document
	docLines := map[string]int{"fx_second_doc_unknown_dup.yaml": 7}
	verdict := regexp.MustCompile(`^(\S+) exit (?:([01]) (?:PASS|FAIL)|2 \[(\d+):(\d+)\] (?:mapping|duplicate) key ("[^"]*"))`)
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < 15 {
		t.Fatalf("upstream.txt has %d lines, want at least 15", len(lines))
	}
	for _, l := range lines {
		m := verdict.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("upstream.txt: unread line %q", l)
		}
		t.Run(m[1], func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, m[1]))
			if err != nil {
				t.Fatal(err)
			}
			fxs, ds := parse(m[1], data)
			var errs []diag.Diagnostic
			for _, d := range ds {
				if d.Severity == diag.Error {
					errs = append(errs, d)
				}
			}
			if m[2] != "" {
				if len(errs) > 0 || len(fxs) == 0 {
					t.Fatalf("upstream runs it; ours: %d fixtures, %v", len(fxs), errs)
				}
				if strings.Contains(m[1], "world_nested_alias") {
					extra, _ := fxs[0].InitialWorld[0].Value.(map[string]any)
					if extra["a"] != int64(2) {
						t.Errorf("initial_world.extra = %v, want the alias key's later value, a: 2", extra)
					}
				}
				return
			}
			line, _ := strconv.Atoi(m[3])
			col, _ := strconv.Atoi(m[4])
			line += docLines[m[1]]
			if !hasDiag(errs, diag.Error, line, col, "key "+m[5]) {
				t.Errorf("want an error at %d:%d naming key %s; got %v", line, col, m[5], errs)
			}
		})
	}
}
