package fetch

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestPinFileWithinNodeLimit: a pin overlay (read up to 16 MiB) is parsed
// within yamlnode.MaxTreeNodes and refused at the node past them; yaml.v3
// built a 6M-node list whole, twice.
func TestPinFileWithinNodeLimit(t *testing.T) {
	data := []byte("models:\n  pad: [" + strings.Repeat("1,", 3*yamlnode.MaxTreeNodes) + "1]\n")
	var err error
	spent := allocs.During(func() { _, err = parsePins(data, "p.yaml") })
	if err == nil || !strings.HasPrefix(err.Error(), "p.yaml: line 2: column ") || !strings.Contains(err.Error(), "YAML nodes") {
		t.Errorf("err = %.300v, want the node limit's at line 2", err)
	}
	// the bounded read counts the file before building a node (it built
	// the limit's nodes, about 400 MB; yaml.v3 alone 1,350)
	if mb := spent >> 20; mb > 64 {
		t.Errorf("reading allocated %d MB, want at most 64", mb)
	}
}
