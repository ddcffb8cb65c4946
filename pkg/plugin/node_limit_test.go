package plugin

import (
	"strings"
	"testing"

	"kitsoki/internal/recost"
	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestManifestAndProfileWithinNodeLimit: a plugin manifest and a plugin
// profile (read up to 16 MiB) are parsed within yamlnode.MaxTreeNodes
// and refused at the node past them; yaml.v3 built a 6M-node list whole,
// twice for a manifest.
func TestManifestAndProfileWithinNodeLimit(t *testing.T) {
	list := "[" + strings.Repeat("1,", 3*yamlnode.MaxTreeNodes) + "1]\n"
	for _, tc := range []struct {
		name string
		read func() error
	}{
		{"manifest", func() error { _, err := parseManifest("m.yaml", []byte("id: x\npad: "+list)); return err }},
		{"profile", func() error {
			_, err := parseProfile("p.yaml", []byte("version: 1\npad: "+list), recost.NewBudget())
			return err
		}},
	} {
		var err error
		spent := allocs.During(func() { err = tc.read() })
		if err == nil || !strings.Contains(err.Error(), ":2:") && !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "YAML nodes") {
			t.Errorf("%s: %.300v, want the node limit's at line 2", tc.name, err)
		}
		// the bounded read counts the file before building a node (it built
		// the limit's nodes, about 400 MB; yaml.v3 alone 1,350)
		if mb := spent >> 20; mb > 64 {
			t.Errorf("%s: reading allocated %d MB, want at most 64", tc.name, mb)
		}
	}
}
