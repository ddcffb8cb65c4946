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
// 6M-node second document whole) and refused at the line of the node past
// the limit, counted once (LoadWorldFile counted it three times).
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
	// the file is read, and copied once to be counted: no node is built.
	// Counting it three times, each building up to the limit's nodes, took
	// 1,200 MB (yaml.v3's whole second document 2,160); with counts that
	// build nothing, the two countable copies of three counts took 3 times
	// the file
	if times := float64(spent) / float64(len(data)); times > 2.5 {
		t.Errorf("reading the world file allocated %d bytes, %.1f times the file, want at most 2.5", spent, times)
	}
}
