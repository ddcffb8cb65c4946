package lsp

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestPointerPosWithinNodeLimit: a schema file a $ref points into (read up
// to the story YAML cap) is parsed within yamlnode.MaxTreeNodes; past them
// the position is the file's start. yaml.v3 built a 6M-node list whole.
func TestPointerPosWithinNodeLimit(t *testing.T) {
	data := []byte("a: 1\npad: [" + strings.Repeat("1,", 3*yamlnode.MaxTreeNodes) + "1]\n")
	var line, col int
	spent := allocs.During(func() { line, col = pointerPos(data, "/a") })
	if line != 1 || col != 1 {
		t.Errorf("pointerPos = %d:%d, want 1:1 (the file's start)", line, col)
	}
	if l, c := pointerPos([]byte("a: 1\nb: 2\n"), "/b"); l != 2 || c != 4 {
		t.Errorf("a small file: %d:%d, want 2:4", l, c)
	}
	// the bounded read counts the file before building a node (it built
	// the limit's nodes, about 400 MB; yaml.v3 alone 1,350)
	if mb := spent >> 20; mb > 64 {
		t.Errorf("reading allocated %d MB, want at most 64", mb)
	}
}
