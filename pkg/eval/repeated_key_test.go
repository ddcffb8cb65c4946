package eval

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
)

// TestRepeatedKeyRefused: a key written twice in any mapping of a dataset
// (top level, task, matrix, selection, an example, its args and expect, a
// description, an unused anchor; `1` beside `"1"`; two merge keys; through
// two mappings of a merged list or an alias key where upstream's decoder
// reads: args, expect, matrix.models) does not load, naming the place
// upstream's parser or decoder named, as the existing engine recorded in
// testdata/repeated-key/upstream.txt; a dataset it read loads here too.
func TestRepeatedKeyRefused(t *testing.T) {
	repeatedkey.Each(t, filepath.Join("testdata", "repeated-key"), 19, func(t *testing.T, v repeatedkey.Verdict) {
		_, err := LoadDataset(v.Path)
		switch {
		case v.Line == "":
			if err != nil {
				t.Errorf("upstream reads it; ours: %v", err)
			}
		case v.FirstLine != "":
			want := fmt.Sprintf("%s:%s:%s: mapping key %s already defined at line %s, column %s; the whole dataset is refused: keep one of them", v.Path, v.Line, v.Col, v.Key, v.FirstLine, v.FirstCol)
			if err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
		default:
			want := fmt.Sprintf("%s:%s:%s: key %s ", v.Path, v.Line, v.Col, v.Key)
			if v.Key == "" || err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "the whole dataset is refused (duplicate key") {
				t.Errorf("got %v\nwant %s…", err, want)
			}
		}
	})
}
