package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// TestStoryReadsHeldOnce: a file the checks read under many names (links
// to it) is read and held once, and past the check's bound (lowered here)
// a further file is refused unread. Before, each name was read twice and
// held, so many links to one large template held it many times over
// (figures in commit f88a7eda).
func TestStoryReadsHeldOnce(t *testing.T) {
	dir := t.TempDir()
	views := filepath.Join(dir, "views")
	if err := os.MkdirAll(views, 0o755); err != nil {
		t.Fatal(err)
	}
	const size = 64 << 10
	for _, f := range []string{"big.pongo", "other.pongo"} {
		if err := os.WriteFile(filepath.Join(views, f), []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var links []string
	for i := range 30 {
		l := filepath.Join(views, fmt.Sprintf("t%d.pongo", i))
		if err := os.Symlink("big.pongo", l); err != nil {
			t.Fatal(err)
		}
		links = append(links, l)
	}
	app := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(app, []byte("app: {id: x}\nroot: a\nstates:\n  a: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := story.Load(app, story.Options{})
	if st == nil {
		t.Fatal("the story does not load")
	}
	c := &checker{st: st, maxReads: size + size/2}
	var first []byte
	for _, l := range append(links, filepath.Join(views, "big.pongo")) {
		b, err := c.readStory(l)
		if err != nil || len(b) != size {
			t.Fatalf("%s: %d bytes, %v", l, len(b), err)
		}
		if first == nil {
			first = b
		} else if &b[0] != &first[0] {
			t.Fatalf("%s: read again, not the bytes held", l)
		}
	}
	if c.heldBytes != size {
		t.Errorf("held %d bytes for one file of %d under 31 names", c.heldBytes, size)
	}
	if _, err := c.readStory(filepath.Join(views, "other.pongo")); !overReads(err) {
		t.Errorf("a second file past the bound: %v, want it refused", err)
	}
}
