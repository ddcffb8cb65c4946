package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCassetteRepeatedKeyRefused: a cassette with a key given twice in one
// mapping (written twice at any depth, in an unused anchor, two `<<:`; or,
// where the cassette is read, through two mappings of a merged list or an
// alias key) does not load, naming the place upstream's parser or decoder
// named and the earlier key, as testdata/repeated-key/upstream.txt recorded;
// a cassette it read loads here too.
func TestCassetteRepeatedKeyRefused(t *testing.T) {
	dir := filepath.Join("testdata", "repeated-key")
	golden, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^(\S+) exit (?:0 PASS|2 \[(\d+):(\d+)\] (?:mapping|duplicate) key ("[^"]*")(?: already defined at \[(\d+):(\d+)\])?)$`)
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if len(lines) < 11 {
		t.Fatalf("upstream.txt has %d lines", len(lines))
	}
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("upstream.txt: unread line %q", l)
		}
		t.Run(m[1], func(t *testing.T) {
			path := filepath.Join(dir, m[1])
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseCassette(path, data)
			if m[2] == "" {
				if err != nil {
					t.Errorf("upstream reads it; ours: %v", err)
				}
				return
			}
			want := fmt.Sprintf("cassette: %s:%s:%s: ", path, m[2], m[3])
			if m[5] != "" {
				want += fmt.Sprintf("mapping key %s already defined at line %s, column %s; the existing engine refuses the whole cassette: keep one of them", m[4], m[5], m[6])
			} else {
				want += "key " + m[4]
			}
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %v\nwant %s…", err, want)
			}
		})
	}
}
