package opened

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// During names the directory listed and the file read, and not the one
// left alone.
func TestDuring(t *testing.T) {
	dir := t.TempDir()
	listed, read, alone := filepath.Join(dir, "listed"), filepath.Join(dir, "read"), filepath.Join(dir, "alone")
	for _, d := range []string{listed, alone} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(read, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := During(t, []string{listed, read, alone}, func() {
		if _, err := os.ReadDir(listed); err != nil {
			t.Fatal(err)
		}
		if _, err := os.ReadFile(read); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(alone); err != nil {
			t.Fatal(err)
		}
	})
	if want := []string{listed, read}; !slices.Equal(got, want) {
		t.Errorf("opened %q, want %q", got, want)
	}
}
