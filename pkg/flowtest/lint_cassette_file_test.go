package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlnode"
)

// TestLintCassetteWithinTheNodeLimit: the linter reads a fixture's
// host_cassette as the loaders do, stopping at yamlnode.MaxTreeNodes
// nodes; it parsed it whole with yaml.v3 (a cassette may be 256 MiB).
func TestLintCassetteWithinTheNodeLimit(t *testing.T) {
	golden := "../engine/testdata/conformance/cassette-agent-answers"
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(golden)); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "flows", "cassettes", "c.yaml")
	b, err := os.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, "\npad: ["+strings.Repeat("1,", yamlnode.MaxTreeNodes)+"1]\n"...)
	if err := os.WriteFile(c, b, 0o644); err != nil {
		t.Fatal(err)
	}
	st := loadGoldenStory(t, dir)
	spent := allocs.During(func() { lintFixtureFile(t, st, filepath.Join(dir, "flows", "f.yaml")) })
	// the loader's read and this one each count the file before building
	// a node (each built the limit's nodes, about 400 MB, before); with
	// the whole tree it was 1,300
	if mb := float64(spent) / (1 << 20); mb > 64 {
		t.Errorf("linting allocated %.0f MB, want at most 64", mb)
	}
}
