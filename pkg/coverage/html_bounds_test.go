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
