package trace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Create on a bad path names the path once and says what to do.
func TestCreateBadPaths(t *testing.T) {
	dir := t.TempDir()
	_, err := Create(dir, Header{})
	if err == nil || !strings.Contains(err.Error(), "is a directory; name a trace file such as "+filepath.Join(dir, "run.jsonl")) {
		t.Fatalf("directory: %v", err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Create(filepath.Join(file, "run.jsonl"), Header{})
	if err == nil || !strings.Contains(err.Error(), "cannot create its directory") {
		t.Fatalf("parent is a file: %v", err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(ro, "run.jsonl")
		_, err = Create(p, Header{})
		if !errors.Is(err, fs.ErrPermission) || strings.Count(err.Error(), p) != 1 {
			t.Fatalf("read-only dir: %v", err)
		}
	}
}
