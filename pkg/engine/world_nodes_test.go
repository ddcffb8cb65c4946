package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

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

// TestWorldFileBuiltOnce: a --world-file within the node limit is built
// into one tree, the one its values are read from; the check that no
// second document follows reads on from it (it built the first document
// again with yaml.v3, after yamlnode had built it once already).
func TestWorldFileBuiltOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.yaml")
	data := []byte("a: [" + strings.Repeat("1, ", 100_000) + "1]\nb: \"x\\/y\"\n")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	var err error
	spent := allocs.During(func() { m, err = LoadWorldFile(p) })
	if err != nil || len(m["a"].([]any)) != 100_001 || m["b"] != "x/y" {
		t.Fatalf("err %v, b %v", err, m["b"])
	}
	// one yaml.v3 build and the values read from it
	once := allocs.During(func() {
		var doc yaml.Node
		if err := yaml.Unmarshal(data[:bytes.LastIndex(data, []byte("b:"))], &doc); err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := doc.Content[0].Decode(&v); err != nil {
			t.Fatal(err)
		}
	})
	if ratio := float64(spent) / float64(once); ratio > 1.3 {
		t.Errorf("loading the world file allocated %d bytes, %.2f times one build and read (%d), want one build", spent, ratio, once)
	}
}
