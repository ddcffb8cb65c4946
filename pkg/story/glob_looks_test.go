package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The patterns of one include: list look at 1,000,000 directory entries
// at most together, each directory listed once: 2,000 patterns matching
// nothing in a directory of 20,000 files (a 50 KB manifest) kept validate
// busy past 300 s (68 s of CPU, most of it listing the directory again
// for each pattern); the first pattern past the bound is an error naming
// it, and the load goes no further. Patterns within it match as before,
// a directory listed for one being listed whole for the next.
func TestIncludeGlobsLookBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "rooms/a.yaml", "states:\n  a: {terminal: true}\n")
	write(t, dir, "rooms/b.yaml", "states:\n  b: {terminal: true}\n")
	const files = 4000
	for i := range files {
		if err := os.WriteFile(filepath.Join(dir, "rooms", fmt.Sprintf("f%05d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var pats []string
	for i := range 300 {
		pats = append(pats, fmt.Sprintf("%q", fmt.Sprintf("rooms/x%d*.yaml", i)))
	}
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [rooms/a*.yaml, rooms/b*.yaml, "+strings.Join(pats, ", ")+"]\n")
	st, ds := Load(dir, Options{})
	out := render(ds)
	if st == nil || !HasTop(st, "a") || !HasTop(st, "b") {
		t.Fatalf("the patterns within the bound did not merge:\n%s", out)
	}
	// each pattern looks at the directory's files+2 entries
	past := fmt.Sprintf(`include glob "rooms/x%d*.yaml"`, maxGlobLooks/(files+2)-2)
	if n := strings.Count(out, "patterns together look at more than 1000000 directory entries"); n != 1 || !strings.Contains(out, past) {
		t.Errorf("want one error, at %s, got %d:\n%s", past, n, out[:min(len(out), 3000)])
	}
}
