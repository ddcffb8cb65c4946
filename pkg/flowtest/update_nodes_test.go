package flowtest

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestUpdateReadsWithinNodeLimit: --update's reads of a fixture file's
// pieces (mappingDocs, docValues) parse each within
// yamlnode.MaxTreeNodes, a piece past them read as one that does not
// parse; yaml.v3 built a 6M-node list whole.
func TestUpdateReadsWithinNodeLimit(t *testing.T) {
	src := []byte("test_kind: flow\nturns: []\n---\npad: [" + strings.Repeat("1,", yamlnode.MaxTreeNodes) + "1]\n")
	for _, tc := range []struct {
		name string
		read func() bool // true: as wanted
	}{
		{"mappingDocs", func() bool { return len(mappingDocs(src)) == 1 }},
		{"docValues", func() bool { _, ok := docValues(src); return !ok }},
	} {
		var ok bool
		spent := allocs.During(func() { ok = tc.read() })
		if !ok {
			t.Errorf("%s: the piece past the limit was read", tc.name)
		}
		// the bounded read counts the file before building a node (it built
		// the limit's nodes, about 400 MB; yaml.v3 alone 1,350)
		if mb := spent >> 20; mb > 64 {
			t.Errorf("%s: reading allocated %d MB, want at most 64", tc.name, mb)
		}
	}
}
