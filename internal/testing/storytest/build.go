package storytest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// NeedGo skips the test when the go tool is not on PATH (the helpers below
// and `go run` plugins need it).
func NeedGo(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go tool on PATH")
	}
}

// build builds pkgs as make build does (CGO_ENABLED=0, -trimpath), so
// the packages make build (or make vet) compiled are found in the build
// cache and only the link runs; like make build's, the link writes no
// symbol table or DWARF (-s -w: no test reads them, and the programs
// cmd's tests build linked in about a quarter less CPU).
func build(out string, pkgs ...string) error {
	args := append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", out}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %v: %v\n%s", args, err, b)
	}
	return nil
}

// Programs builds a set of main packages once per test binary, into one
// temporary folder: declare it as a package variable and call Remove from
// TestMain after m.Run.
type Programs struct {
	Pkgs []string // import paths of the main packages, built together

	once sync.Once
	dir  string
	err  error
}

// Path builds the programs on first use and returns the path of the one
// named name (the last element of its import path).
func (p *Programs) Path(t testing.TB, name string) string {
	t.Helper()
	NeedGo(t)
	p.once.Do(func() {
		p.dir, p.err = os.MkdirTemp("", "storytest-")
		if p.err != nil {
			return
		}
		p.err = build(p.dir+string(filepath.Separator), p.Pkgs...)
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return filepath.Join(p.dir, name)
}

// Remove deletes the folder the programs were built into, if any.
func (p *Programs) Remove() {
	if p.dir != "" {
		os.RemoveAll(p.dir)
	}
}
