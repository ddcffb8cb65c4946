package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRepeatedKeyRefused: a key written twice in any mapping of a dataset
// (top level, task, matrix, selection, an example, its args and expect, a
// description, an unused anchor; `1` beside `"1"`; two merge keys; through
// two mappings of a merged list or an alias key where upstream's decoder
// reads: args, expect, matrix.models) does not load, naming the place
// upstream's parser or decoder named, as the existing engine recorded in
// testdata/repeated-key/upstream.txt; a dataset it read loads here too.
func TestRepeatedKeyRefused(t *testing.T) {
	dir := filepath.Join("testdata", "repeated-key")
	golden, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	refused := regexp.MustCompile(`^(\S+) exit 1 Error: \[(\d+):(\d+)\] mapping key ("[^"]*") already defined at \[(\d+):(\d+)\]$`)
	accepted := regexp.MustCompile(`^(\S+) exit 0 `)
	decoded := regexp.MustCompile(`^(\S+) exit 1 Error: \[(\d+):(\d+)\] duplicate key ("[^"]*")$`)
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < 19 {
		t.Fatalf("upstream.txt has %d lines", len(lines))
	}
	for _, line := range lines {
		if m := accepted.FindStringSubmatch(line); m != nil {
			t.Run(m[1], func(t *testing.T) {
				if _, err := LoadDataset(filepath.Join(dir, m[1])); err != nil {
					t.Errorf("upstream reads it; ours: %v", err)
				}
			})
			continue
		}
		if m := decoded.FindStringSubmatch(line); m != nil {
			t.Run(m[1], func(t *testing.T) {
				shown := filepath.Join(dir, m[1])
				_, err := LoadDataset(shown)
				want := fmt.Sprintf("%s:%s:%s: key %s ", shown, m[2], m[3], m[4])
				if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "the existing engine refuses the whole dataset (duplicate key") {
					t.Errorf("got %v\nwant %s…", err, want)
				}
			})
			continue
		}
		m := refused.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("upstream.txt: unread line %q", line)
		}
		t.Run(m[1], func(t *testing.T) {
			shown := filepath.Join(dir, m[1])
			_, err := LoadDataset(shown)
			want := fmt.Sprintf("%s:%s:%s: mapping key %s already defined at line %s, column %s; the existing engine refuses the whole dataset: keep one of them", shown, m[2], m[3], m[4], m[5], m[6])
			if err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
		})
	}
}
