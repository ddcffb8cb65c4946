package story

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
	"kitsoki/pkg/diag"
)

// TestStoryRepeatedKeyRefused: a story with a key given twice through an
// alias key, written twice in a world entry, or a merged list where the
// existing engine's decoder wants a mapping (or into a map, two of its
// mappings sharing a key) does not load, at the place upstream named, as
// testdata/repeated-key/upstream.txt recorded; a story it read loads here.
func TestStoryRepeatedKeyRefused(t *testing.T) {
	// where ours names the file and upstream its re-print of a world entry,
	// or the list's `[` where yaml.v3 places an anchored node at its anchor
	ours := map[string]string{
		"st_world_alias_block.yaml": "6:5",
		"st_world_alias_flow.yaml":  "4:22",
		"st_world_extra_alias.yaml": "4:40",
		"st_mlist_alias_seq.yaml":   "4:34",
		"st_view_mlist.yaml":        "10:16",
	}
	repeatedkey.Each(t, filepath.Join("testdata", "repeated-key"), 24, func(t *testing.T, v repeatedkey.Verdict) {
		_, ds := LoadSource(v.Path, v.Data, Options{})
		var errs []diag.Diagnostic
		for _, d := range ds {
			if d.Severity == diag.Error {
				errs = append(errs, d)
			}
		}
		if v.Line == "" {
			if len(errs) > 0 {
				t.Fatalf("upstream loads it; ours: %v", errs)
			}
			return
		}
		at := v.Line + ":" + v.Col
		if o, ok := ours[filepath.Base(v.Path)]; ok {
			at = o
		}
		want := "was used where" // a merged list (ours names the sequence)
		if v.Key != "" {
			want = "key " + v.Key
		} else if !strings.Contains(v.Msg, want) {
			want = "key " // a world entry's re-print: the repeated key
		}
		for _, d := range errs {
			if strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Col) == at && strings.Contains(d.Message, want) {
				return
			}
		}
		t.Errorf("want an error at %s containing %q; got %v", at, want, errs)
	})
}
