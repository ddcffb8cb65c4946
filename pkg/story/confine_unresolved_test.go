package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Confined calls outside only a path that leads outside: one that cannot
// be resolved for another reason than being missing (a name over 255
// bytes, a file used as a directory, a NUL byte, a link loop, a dangling
// link) is judged where it would be. Before, every such error read as
// outside, so an inline prompt with a long word was refused as a prompt
// file "outside the story's roots" though it named a place inside. A link
// leading out stays outside whatever lies past it.
func TestConfinedUnresolvableInsideIsNotOutside(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{
		"loop":      "loop",
		"dangle":    "nowhere",
		"out":       filepath.Join(outside, "secret.txt"),
		"outdir":    outside,
		"outdangle": filepath.Join(outside, "nowhere"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("x", 300)
	roots := []string{dir}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{long, true},                   // ENAMETOOLONG
		{"say " + long + " now", true}, // the same, with spaces
		{"file.txt/x", true},           // ENOTDIR
		{"a\x00b", true},               // a NUL byte
		{"loop", true},                 // ELOOP, the loop inside
		{"dangle", true},
		{"out", false},
		{"outdangle", false},
		{"outdir/" + long, false},
		{"out/x", false},
	} {
		if got := Confined(filepath.Join(dir, tc.rel), roots); got != tc.want {
			t.Errorf("Confined(%.40q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
