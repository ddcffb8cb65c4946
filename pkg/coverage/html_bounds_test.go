package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteHTMLDirBoundsPages: a profile (a shard another job wrote)
// naming more story files than MaxHTMLFiles is refused before a page is
// written; before, each file cost a page on disk, so a small profile of
// many empty files filled a disk and took minutes.
func TestWriteHTMLDirBoundsPages(t *testing.T) {
	p := &Profile{}
	for i := 0; i <= MaxHTMLFiles; i++ {
		p.Files = append(p.Files, &File{Path: fmt.Sprintf("f%d.yaml", i)})
	}
	dir := filepath.Join(t.TempDir(), "html")
	err := WriteHTMLDir(dir, p, HTMLOptions{Root: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("names %d story files, more than the %d", MaxHTMLFiles+1, MaxHTMLFiles)) {
		t.Fatalf("WriteHTMLDir: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d pages written", len(ents))
	}
}

// A report directory inside the project that is a link out of it (swapped
// in after kitsoki's check before the run) gets no page: with OutRoot the
// pages are written through the project root, and the refusal names the
// way out.
func TestWriteHTMLDirNeverThroughALinkOut(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(project, "cov")
	if err := os.Symlink(outside, dir); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	p := &Profile{Files: []*File{{Path: "app.yaml"}}}
	err := WriteHTMLDir(dir, p, HTMLOptions{Root: project, OutRoot: project})
	if err == nil || !strings.Contains(err.Error(), "leads out of the project root") {
		t.Errorf("WriteHTMLDir through cov/: %v; want the link out refused", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("%d pages written outside the project", len(ents))
	}
}
