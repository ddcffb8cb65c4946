package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/internal/testing/allocs"
)

// TestCassetteIncludesBounded: a cassette naming one file by !include on
// many lines is capped as a whole, not per file: a small cassette naming
// one large file on many lines grew without bound before. The error names
// the cassette, the line and the cap. The cap is lowered to 1 MiB so the
// bound is reached without building the product's 256 MiB
// (TestCassetteCapIsTheDocumented holds the product's value).
func TestCassetteIncludesBounded(t *testing.T) {
	t.Parallel() // in process, its own temp dir; measures nothing of the process
	const max = 1 << 20
	dir := t.TempDir()
	// each file is well under the cap; quoted, each \x01 takes 6 bytes
	big := strings.Repeat("\x01", 16<<10)
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	n := max/(16<<10) + 8
	var b strings.Builder
	b.WriteString("kind: host_cassette\nepisodes:\n")
	for range n {
		b.WriteString("  - id: e\n    agent:\n      prompt: !include big.txt\n")
	}
	p := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := loadCassette(p, max)
	if err == nil || !strings.Contains(err.Error(), "c.yaml") || !strings.Contains(err.Error(), "line ") || !strings.Contains(err.Error(), "passes 1 MiB, the cap for a cassette") {
		t.Fatalf("loadCassette: %v; want an error naming the cassette, the line and the 1 MiB cap", err)
	}
}

// TestCassetteCapIsTheDocumented: LoadCassette holds a cassette to
// safefile.Cassette, the 256 MiB docs/compat/hardening.md states. A
// sparse file one byte over is refused by its size, unread.
func TestCassetteCapIsTheDocumented(t *testing.T) {
	if safefile.Cassette != 256<<20 {
		t.Fatalf("safefile.Cassette is %d bytes; docs/compat/hardening.md says 256 MiB", safefile.Cassette)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "The cassette with its included (quoted) files is capped at 256 MiB as a whole") {
		t.Fatal("docs/compat/hardening.md no longer states the cassette cap of 256 MiB")
	}
	p := filepath.Join(t.TempDir(), "c.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(safefile.Cassette + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := LoadCassette(p); err == nil || !strings.Contains(err.Error(), "over the 256 MiB cap") {
		t.Fatalf("LoadCassette of a cassette one byte over 256 MiB: %v", err)
	}
}

// TestCassetteCostlyJSONIncludeIsRefused: an included *.json file is
// decoded into any (as upstream inlines it); one of millions of empty
// arrays is refused before it is decoded, naming the cassette, the line,
// the file and the limit, and loading it allocates about the file's size
// (before: 430 MB for these 9 MB, 47 times, and the cassette was refused
// only later, by its YAML node count; kitsoki run with 30 MB: 766 MB RSS).
func TestCassetteCostlyJSONIncludeIsRefused(t *testing.T) {
	dir := t.TempDir()
	big := "[" + strings.Repeat("[],", 3_000_000) + "[]]"
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(p, []byte("kind: host_cassette\nepisodes:\n  - id: e\n    agent:\n      response: !include big.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	alloc := allocs.During(func() { _, err = loadCassette(p, safefile.Cassette) })
	t.Logf("loading a cassette including %d bytes allocated %d", len(big), alloc)
	if err == nil || !strings.Contains(err.Error(), `c.yaml": line 5: !include "big.json": the file is 9000004 bytes of JSON that would take over 256 MiB once read`) {
		t.Fatalf("loadCassette: %v; want the include refused naming its size and the limit", err)
	}
	if alloc > 4*uint64(len(big)) {
		t.Fatalf("refusing %d bytes of JSON allocated %d", len(big), alloc)
	}
}
