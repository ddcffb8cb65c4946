package flowtest

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
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
	// upstream counts a later document's lines from the document
	docLines := map[string]int{"fx_second_doc_unknown_dup.yaml": 7}
	repeatedkey.Each(t, filepath.Join("testdata", "repeated-key-fixture"), 15, func(t *testing.T, v repeatedkey.Verdict) {
		name := filepath.Base(v.Path)
		fxs, ds := parse(name, v.Data)
		var errs []diag.Diagnostic
		for _, d := range ds {
			if d.Severity == diag.Error {
				errs = append(errs, d)
			}
		}
		if v.Line == "" {
			if len(errs) > 0 || len(fxs) == 0 {
				t.Fatalf("upstream runs it; ours: %d fixtures, %v", len(fxs), errs)
			}
			if strings.Contains(name, "world_nested_alias") {
				extra, _ := fxs[0].InitialWorld[0].Value.(map[string]any)
				if extra["a"] != int64(2) {
					t.Errorf("initial_world.extra = %v, want the alias key's later value, a: 2", extra)
				}
			}
			return
		}
		line, _ := strconv.Atoi(v.Line)
		col, _ := strconv.Atoi(v.Col)
		line += docLines[name]
		if v.Key == "" || !hasDiag(errs, diag.Error, line, col, "key "+v.Key) {
			t.Errorf("want an error at %d:%d naming key %s; got %v", line, col, v.Key, errs)
		}
	})
}
