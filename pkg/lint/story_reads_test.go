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
	c := &checker{st: st, held: &heldReads{max: size + size/2}}
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
	if c.held.bytes != size {
		t.Errorf("held %d bytes for one file of %d under 31 names", c.held.bytes, size)
	}
	if _, err := c.readStory(filepath.Join(views, "other.pongo")); !overReads(err) {
		t.Errorf("a second file past the bound: %v, want it refused", err)
	}
}

// TestStoryReadsBoundPerLoad: the bound is the load's, the story's and
// its imported children's reads together, and the refusal names the
// file. Before, each child's checks had a bound of their own, so a story
// importing many children, each reading up to the bound, held it once per
// child (figures in this test's commit).
func TestStoryReadsBoundPerLoad(t *testing.T) {
	dir := t.TempDir()
	const size = 64 << 10
	files := map[string]string{"app.yaml": "app: {id: top}\nroot: a\nimports:\n"}
	for i := range 3 {
		kid := fmt.Sprintf("kid%d", i)
		files["app.yaml"] += fmt.Sprintf("  %s: {source: ./%s, entry: s}\n", kid, kid)
		files[kid+"/app.yaml"] = "app: {id: " + kid + "}\nroot: s\nstates:\n  s:\n    view: {template_file: big.pongo}\n"
		files[kid+"/views/big.pongo"] = strings.Repeat("x", size-1) + kid[3:]
	}
	files["app.yaml"] += "states:\n  a: {}\n"
	for f, c := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, ds := story.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil {
		t.Fatalf("the story does not load: %v", ds)
	}
	held := &heldReads{max: 2*size + size/2}
	ds, _ = checkLoad(st, story.Options{}, held, false)
	var refused []string
	for _, d := range ds {
		if strings.Contains(d.Message, "where no more is read") {
			refused = append(refused, d.File+": "+d.Message)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "big.pongo") {
		t.Fatalf("want one refusal naming big.pongo, got %q (held %d bytes)", refused, held.bytes)
	}
	if held.bytes > held.max {
		t.Fatalf("held %d bytes past the bound %d", held.bytes, held.max)
	}
}
