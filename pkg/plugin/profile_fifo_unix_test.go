//go:build unix

package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A repository's .kitsoki/plugins.yaml that cannot be read (a FIFO,
// refused unopened) is an error telling to fix or remove that file, not
// the --profile flag nobody gave (redteam22: validate said "fix the path
// given to --profile").
func TestUnreadableFoundProfileNamesTheFile(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ProfileDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, ProfileDir, ProfileFile), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Assemble(Options{StoryDir: root, Getenv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "FIFO") || strings.Contains(err.Error(), "--profile") || !strings.Contains(err.Error(), "fix or remove the file") {
		t.Fatalf("err = %v", err)
	}
	_, err = Assemble(Options{StoryDir: t.TempDir(), Getenv: noEnv, ProfilePath: filepath.Join(root, ProfileDir, ProfileFile)})
	if err == nil || !strings.Contains(err.Error(), "fix the path given to --profile") {
		t.Fatalf("--profile FIFO: %v", err)
	}
}
