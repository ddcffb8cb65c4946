package plugin

import (
	"kitsoki/internal/recost"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

// bigAliases is a YAML flow list of an anchor of size bytes and n aliases
// of it.
func bigAliases(size, n int) string {
	return "[&big " + strings.Repeat("v", size) + strings.Repeat(", *big", n) + "]"
}

// mbAliases is a YAML flow list of aliasmb's anchors and n aliases of its
// 1 MB list, on one line.
func mbAliases(n int) string {
	return "[" + aliasmb.Anchors() + strings.Repeat(", *mb", n) + "]"
}

// TestManifestAndProfileAliasTextBounded: a plugin manifest's and a plugin
// profile's aliases (the repository's .kitsoki/ files) repeat at most
// yamlnode.MaxAliasText of text, as a fixture file's do; the error names
// the file and the alias's line. Before, each repeated pattern was
// compiled, and each invalid one quoted whole in its own error.
func TestManifestAndProfileAliasTextBounded(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\nentry:\n  command: x\n  args: "+mbAliases(70)+"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "m.yaml:5: the aliases of this manifest repeat more than 64 MB") {
		t.Errorf("manifest: %v", err)
	}
	if m, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\nentry:\n  command: x\n  args: "+bigAliases(8, 200)+"\n")); err != nil || len(m.Entry.Args) != 201 {
		t.Errorf("manifest with short aliases: %v", err)
	}
	_, err = parseProfile("p.yaml", []byte("version: 1\nconfig:\n  redact:\n    patterns: "+mbAliases(70)+"\n"), recost.NewBudget())
	if err == nil || !strings.Contains(err.Error(), "p.yaml:4:") || !strings.Contains(err.Error(), "the aliases of this plugin profile repeat more than 64 MB") || len(err.Error()) > 1000 {
		t.Errorf("profile: %.300v", err)
	}
	if p, err := parseProfile("p.yaml", []byte("version: 1\nconfig:\n  redact:\n    patterns: "+bigAliases(8, 200)+"\n"), recost.NewBudget()); err != nil || p == nil {
		t.Errorf("profile with short aliases: %v", err)
	}
}
