package story

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestStoryRepeatedKeyRefused: a story with a key given twice through an
// alias key, written twice in a world entry, or a merged list where the
// existing engine's decoder wants a mapping (or into a map, two of its
// mappings sharing a key) does not load, at the place upstream named, as
// testdata/repeated-key/upstream.txt recorded; a story it read loads here.
func TestStoryRepeatedKeyRefused(t *testing.T) {
	dir := filepath.Join("testdata", "repeated-key")
	golden, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// where ours names the file and upstream its re-print of a world entry,
	// or the list's `[` where yaml.v3 places an anchored node at its anchor
	ours := map[string]string{
		"st_world_alias_block.yaml": "6:5",
		"st_world_alias_flow.yaml":  "4:22",
		"st_world_extra_alias.yaml": "4:40",
		"st_mlist_alias_seq.yaml":   "4:34",
		"st_view_mlist.yaml":        "10:16",
	}
	keyText := regexp.MustCompile(`(?:duplicate|mapping) key ("[^"]*")`)
	verdict := regexp.MustCompile(`^(\S+) exit (?:0 PASS|1 .*?\[(\d+):(\d+)\] (.*))$`)
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < 24 {
		t.Fatalf("upstream.txt has %d lines, want at least 24", len(lines))
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
			_, ds := LoadSource(filepath.Join(dir, m[1]), data, Options{})
			var errs []diag.Diagnostic
			for _, d := range ds {
				if d.Severity == diag.Error {
					errs = append(errs, d)
				}
			}
			if m[2] == "" {
				if len(errs) > 0 {
					t.Fatalf("upstream loads it; ours: %v", errs)
				}
				return
			}
			at := m[2] + ":" + m[3]
			if o, ok := ours[m[1]]; ok {
				at = o
			}
			want := "was used where" // a merged list (ours names the sequence)
			if k := keyText.FindStringSubmatch(m[4]); k != nil {
				want = "key " + k[1]
			} else if !strings.Contains(m[4], want) {
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
}
