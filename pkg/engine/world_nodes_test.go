package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestWorldFileLaterDocumentWithinNodeLimit: a --world-file's documents
// after the first are counted before yaml.v3 reads them (yamlOne built a
// 6M-node second document whole) and refused at the line
// of the node past the limit.
func TestWorldFileLaterDocumentWithinNodeLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.yaml")
	data := "a: 1\n---\n[" + strings.Repeat("1,", 3*yamlnode.MaxTreeNodes) + "1]\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	spent := allocs.During(func() { _, err = LoadWorldFile(p) })
	if err == nil || !strings.Contains(err.Error(), "line 3: column ") || !strings.Contains(err.Error(), "YAML nodes") {
		t.Errorf("err = %.300v, want the node limit's at line 3", err)
	}
	// the first read counts the later document twice and the check once,
	// about 400 MB each (1,200 together); yaml.v3's whole second document
	// made it 2,160
	if mb := spent >> 20; mb > 1800 {
		t.Errorf("reading the world file allocated %d MB, want at most 1800", mb)
	}
}
