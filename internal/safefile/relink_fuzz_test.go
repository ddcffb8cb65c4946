//go:build unix

package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// The names a fuzzed tree is made of. elsewhere is the directory beside the
// root that holds the secret; no name inside the root is it, so an error
// naming it has named a link's target.
const (
	elsewhere = "elsewhere-q7"
	secret    = "SECRET-4f1c"
)

var (
	fuzzSlots = []string{"a", "b", "c", "a/x", "a/y", "b/x", "c/z", "a/x/w"}
	fuzzParts = []string{"..", ".", "a", "b", "c", "x", "y", "z", "w", elsewhere, "secret.txt", "fifo", "r", "rl"}
	// a path read names neither ".." nor the secret's directory: each
	// is refused lexically, naming the path as given
	fuzzNames = []string{".", "a", "b", "c", "x", "y", "z", "w", "secret.txt", "fifo", "r", "rl"}
)

// fuzzTree is a root and its surroundings built from fuzz input: base/r
// is the root, base/rl a symlink to it, base/elsewhere-q7/secret.txt the
// secret outside.
type fuzzTree struct {
	base, real, dir string // dir: the root as NewRoot is given it (r or rl)
	in              []byte
}

func (f *fuzzTree) byte() int {
	if len(f.in) == 0 {
		return 0
	}
	b := f.in[0]
	f.in = f.in[1:]
	return int(b)
}

// path is up to four parts from pool, joined.
func (f *fuzzTree) path(pool []string) string {
	var ps []string
	for n := f.byte() % 5; n > 0; n-- {
		ps = append(ps, pool[f.byte()%len(pool)])
	}
	return strings.Join(ps, "/")
}

// target is a symlink target: relative, or absolute under the root as
// written, its resolution, the secret's directory, base or "/".
func (f *fuzzTree) target() string {
	rel := f.path(fuzzParts)
	bases := []string{"", f.real, filepath.Join(f.base, "rl"), filepath.Join(f.base, elsewhere), f.base, "/"}
	b := bases[f.byte()%len(bases)]
	switch {
	case b == "" && rel == "":
		return "."
	case b == "":
		return rel
	}
	return b + "/" + rel // not joined: a ".." stays as written
}

func newFuzzTree(t *testing.T, in []byte) *fuzzTree {
	base := t.TempDir()
	f := &fuzzTree{base: base, real: filepath.Join(base, "r"), in: in}
	for _, d := range []string{f.real, filepath.Join(base, elsewhere, "d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, elsewhere, "secret.txt"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(base, elsewhere, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("r", filepath.Join(base, "rl")); err != nil {
		t.Fatal(err)
	}
	f.dir = f.real
	if f.byte()%2 == 1 {
		f.dir = filepath.Join(base, "rl")
	}
	for n := f.byte() % 12; n > 0; n-- {
		f.make(f.byte()%len(fuzzSlots), f.byte()%5)
	}
	return f
}

// make puts a directory, file, relative or absolute symlink or FIFO at
// slot, when its parent is a directory (so nothing is made outside).
func (f *fuzzTree) make(slot, kind int) {
	p := filepath.Join(f.real, fuzzSlots[slot])
	if fi, err := os.Lstat(filepath.Dir(p)); err != nil || !fi.IsDir() {
		return
	}
	if _, err := os.Lstat(p); err == nil {
		return
	}
	switch kind {
	case 0:
		os.Mkdir(p, 0o755)
	case 1:
		os.WriteFile(p, []byte("file "+fuzzSlots[slot]), 0o644)
	case 2, 3:
		t := f.target()
		if kind == 2 && filepath.IsAbs(t) || kind == 3 && !filepath.IsAbs(t) {
			t = strings.TrimPrefix(t, "/")
			if kind == 3 {
				t = f.real + "/" + t
			}
		}
		if t == "" {
			t = "."
		}
		os.Symlink(t, p)
	case 4:
		syscall.Mkfifo(p, 0o644)
	}
}

// FuzzRelinked: whatever tree of directories, files, FIFOs and relative
// or absolute symlinks (in, out, up, to themselves, dangling, chained) the
// root holds, a read through it never returns the secret beside it, never
// names the secret's directory in an error, never hangs, and each success
// is what the system's own resolution (filepath.EvalSymlinks) finds, inside
// the root.
func FuzzRelinked(f *testing.F) {
	for _, s := range []string{
		"\x00\x01\x00\x03\x01\x02\x00\x02",                 // a: a file, read
		"\x00\x02\x00\x03\x00\x01\x01\x03\x00\x01\x00",     // b: an absolute link to the root
		"\x01\x01\x00\x03\x02\x00\x09\x0a\x03\x01\x00",     // a -> ../elsewhere-q7/secret.txt
		"\x00\x01\x00\x03\x03\x00\x09\x0a\x03\x01\x00",     // a -> /…/elsewhere-q7/secret.txt (absolute)
		"\x01\x02\x00\x03\x01\x02\x01\x03\x02\x02\x00\x01", // a -> /…/rl/b, b -> a: a loop
		"\x00\x03\x00\x00\x03\x04\x01\x03\x01\x05\x01\x02", // a/x a FIFO behind a link
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ft := newFuzzTree(t, in)
		r := NewRoot(ft.dir)
		defer r.Close()
		for n := 1 + ft.byte()%4; n > 0; n-- {
			p := filepath.Join(ft.dir, ft.path(fuzzNames))
			guard(t, p, func() { ft.check(t, r, p) })
		}
	})
}

// check reads, stats and lists p through r and holds each answer to the
// invariants.
func (f *fuzzTree) check(t *testing.T, r *Root, p string) {
	b, err := r.ReadFile(p, 1<<10)
	f.noLeak(t, p, "ReadFile", err)
	if bytes.Contains(b, []byte(secret)) {
		t.Errorf("ReadFile(%s) returned the secret", p)
	}
	want, ok := f.resolve(p)
	if err == nil {
		if !ok {
			t.Errorf("ReadFile(%s) = %q, but it resolves outside the root or not at all", p, b)
		} else if got, rerr := ReadFile(want, 1<<10); rerr != nil || !bytes.Equal(got, b) {
			t.Errorf("ReadFile(%s) = %q, but %s holds %q (%v)", p, b, want, got, rerr)
		}
	}
	fi, err := r.Stat(p)
	f.noLeak(t, p, "Stat", err)
	if err == nil {
		if !ok {
			t.Errorf("Stat(%s) succeeds, but it resolves outside the root or not at all", p)
		} else if wfi, werr := os.Stat(want); werr != nil || !os.SameFile(fi, wfi) {
			t.Errorf("Stat(%s) is not the stat of %s (%v)", p, want, werr)
		}
	}
	ents, err := r.ReadDir(p, 0)
	f.noLeak(t, p, "ReadDir", err)
	if err == nil && ok {
		wents, werr := readDirNoFIFO(want)
		if werr != nil || !slices.Equal(names(ents), names(wents)) {
			t.Errorf("ReadDir(%s) = %v, but %s lists %v (%v)", p, names(ents), want, names(wents), werr)
		}
	} else if err == nil {
		t.Errorf("ReadDir(%s) = %v, but it resolves outside the root or not at all", p, names(ents))
	}
}

// resolve is p as the system resolves it, when that lies inside the root.
func (f *fuzzTree) resolve(p string) (string, bool) {
	ev, err := filepath.EvalSymlinks(p)
	if err != nil || !Within(f.real, ev) {
		return "", false
	}
	return ev, true
}

// noLeak fails when err names the secret's directory or holds the secret.
func (f *fuzzTree) noLeak(t *testing.T, p, op string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if s := err.Error(); strings.Contains(s, elsewhere) || strings.Contains(s, secret) {
		t.Errorf("%s(%s): the error names what lies outside: %v", op, p, err)
	}
	if errors.Is(err, ErrOutsideRoot) && !strings.Contains(err.Error(), p) {
		t.Errorf("%s(%s): the refusal does not name the path: %v", op, p, err)
	}
}

// readDirNoFIFO is os.ReadDir, refusing a FIFO unopened.
func readDirNoFIFO(p string) ([]fs.DirEntry, error) {
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return nil, errNotRegular
	}
	return os.ReadDir(p)
}

func names(ents []fs.DirEntry) []string {
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
