package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func rootTree(t *testing.T) (base, root string) {
	t.Helper()
	base = t.TempDir()
	root = filepath.Join(base, "root")
	writeTree(t, base, map[string]string{"root/in.txt": "in", "root/sub/s.txt": "s", "out.txt": "SECRET-CANARY"})
	for link, target := range map[string]string{
		"root/rel": "in.txt", "root/sub/up": "../in.txt", "root/esc": "../out.txt",
		"root/abs": filepath.Join(base, "root", "in.txt"), "root/dir": "..",
		"root/absout": filepath.Join(base, "out.txt"), "root/absdir": base, "root/absup": filepath.Join(base, "root", "sub", "..", "abs"), "root/absdirin": filepath.Join(base, "root", "sub"),
		"root/absesc": filepath.Join(base, "root", "esc"), "root/loop": filepath.Join(base, "root", "loop"),
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}

// writeTree writes each file (a slash path under base) with its content.
func writeTree(t *testing.T, base string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		p = filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A Root reads what lies inside it, following symlinks that stay inside
// (an absolute one too), and refuses what leaves it (a path, a relative or
// absolute symlink) with ErrOutsideRoot, naming the path as given and the
// link, never the target.
func TestRootConfines(t *testing.T) {
	base, dir := rootTree(t)
	r := NewRoot(dir)
	defer r.Close()
	for name, want := range map[string]string{"in.txt": "in", "rel": "in", "sub/up": "s", "sub/s.txt": "s", "sub/../in.txt": "in", "abs": "in", "absup": "in", "absdirin/s.txt": "s"} {
		if name == "sub/up" {
			want = "in"
		}
		b, err := r.ReadFile(filepath.Join(dir, name), Story)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q %v", name, b, err)
		}
		if !r.Inside(filepath.Join(dir, name)) {
			t.Errorf("%s: not inside", name)
		}
		if f, err := r.Open(filepath.Join(dir, name), Story); err != nil {
			t.Errorf("%s: Open %v", name, err)
		} else {
			f.Close()
		}
	}
	for _, p := range []string{filepath.Join(dir, "esc"), filepath.Join(dir, "absout"), filepath.Join(dir, "absdir", "out.txt"), filepath.Join(dir, "absesc"), filepath.Join(dir, "dir", "out.txt"), filepath.Join(base, "out.txt"), filepath.Join(dir, "..", "out.txt"), "/etc/passwd", "relative"} {
		_, err := r.ReadFile(p, Story)
		if !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("%s: %v, want ErrOutsideRoot", p, err)
			continue
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "out.txt") && !strings.Contains(p, "out.txt") {
			t.Errorf("%s: the error names the target: %v", p, err)
		}
		if r.Inside(p) {
			t.Errorf("%s: Inside", p)
		}
		if _, err := r.Stat(p); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("%s: Stat %v", p, err)
		}
		if f, err := r.Open(p, Story); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("%s: Open %v", p, err)
			if f != nil {
				f.Close()
			}
		}
	}
	// an absolute link leading out is named; a loop of links is an error
	if _, err := r.ReadFile(filepath.Join(dir, "absout"), Story); err == nil || !strings.Contains(err.Error(), "the symlink "+filepath.Join(dir, "absout")+" on the way leads out") {
		t.Errorf("absout: %v", err)
	}
	if _, err := r.ReadFile(filepath.Join(dir, "loop"), Story); err == nil {
		t.Error("loop: read")
	}
	// through an absolute link inside, a missing file is missing, not outside
	if _, err := r.ReadFile(filepath.Join(dir, "absdirin", "nope"), Story); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrOutsideRoot) {
		t.Errorf("missing beside an absolute link: %v", err)
	}
	// missing inside is missing, not outside; inside a link out is outside
	if _, err := r.ReadFile(filepath.Join(dir, "nope"), Story); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrOutsideRoot) {
		t.Errorf("missing: %v", err)
	}
	if !r.Inside(filepath.Join(dir, "nope", "x")) || r.Inside(filepath.Join(dir, "dir", "nope")) {
		t.Error("a missing path: inside when lexically inside and no link leads out")
	}
	// a Root reopens after Close
	r.Close()
	if _, err := r.ReadFile(filepath.Join(dir, "in.txt"), Story); err != nil {
		t.Fatal(err)
	}
	if Inside(dir, filepath.Join(dir, "esc")) || !Inside(dir, filepath.Join(dir, "rel")) {
		t.Error("Inside")
	}
}

// Through a Root, FIFOs, devices and oversize files stay refused.
func TestRootKeepsReadFileRules(t *testing.T) {
	dir := t.TempDir()
	if fifo := makeFIFO(t, dir); fifo != "" {
		r := NewRoot(dir)
		defer r.Close()
		if _, err := r.ReadFile(fifo, Story); !errors.Is(err, errNotRegular) {
			t.Fatalf("fifo: %v", err)
		}
	}
	p := filepath.Join(dir, "big")
	if err := os.WriteFile(p, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRoot(dir).ReadFile(p, 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("big: %v", err)
	}
	if b, err := NewRoot(dir).ReadFile(p, 100); err != nil || len(b) != 100 {
		t.Fatalf("at the cap: %d bytes, %v", len(b), err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRoot(dir).ReadFile(sub, Story); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("directory: %v", err)
	}
}

// os.Root's word for an escape, which classify maps to ErrOutsideRoot: a
// Go release that rewords it fails here, not silently in the field.
func TestEscapeWording(t *testing.T) {
	dir := t.TempDir()
	or, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer or.Close()
	_, err = or.Stat("../x")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Err.Error() != escapes {
		t.Fatalf("os.Root says %v, classify expects %q", err, escapes)
	}
}

// FuzzRootResolve: Resolve and Rel agree with a plain lexical check, and
// nothing they accept leaves the root, whatever the name.
func FuzzRootResolve(f *testing.F) {
	for _, s := range []string{"a", "../a", "a/../../b", "/etc/passwd", "", ".", "..", "a/./b/../c", "//x", "a\x00b", "...", "a/..", "r/../root2/x"} {
		f.Add(s)
	}
	r := NewRoot("/work/root")
	f.Fuzz(func(t *testing.T, name string) {
		p, err := r.Resolve("/work/root/sub", name)
		rel, ok := r.Rel(p)
		if (err == nil) != ok {
			t.Fatalf("Resolve %q = %q, %v; Rel says %v", name, p, err, ok)
		}
		if err != nil {
			if !errors.Is(err, ErrOutsideRoot) {
				t.Fatalf("%q: %v", name, err)
			}
			return
		}
		if p != "/work/root" && !strings.HasPrefix(p, "/work/root/") {
			t.Fatalf("%q resolved to %q, outside", name, p)
		}
		if filepath.Join("/work/root", rel) != p {
			t.Fatalf("Rel %q of %q", rel, p)
		}
	})
}

// ReadDir lists inside the root only: a directory reached through a
// symlink leading out is ErrOutsideRoot, and limit cuts the list one past
// it so that the caller can tell.
func TestRootReadDir(t *testing.T) {
	base, dir := rootTree(t)
	r := NewRoot(dir)
	defer r.Close()
	ents, err := r.ReadDir(filepath.Join(dir, "sub"), 0)
	if err != nil || len(ents) != 2 || ents[0].Name() != "s.txt" || ents[1].Name() != "up" {
		t.Fatalf("ReadDir(sub) = %v, %v", ents, err)
	}
	for _, p := range []string{filepath.Join(dir, "dir"), base} {
		if ents, err := r.ReadDir(p, 0); !errors.Is(err, ErrOutsideRoot) || len(ents) != 0 {
			t.Errorf("ReadDir(%s) = %v, %v; want ErrOutsideRoot and nothing listed", p, ents, err)
		}
	}
	if ents, err := r.ReadDir(dir, 2); err != nil || len(ents) != 3 {
		t.Errorf("ReadDir(root, 2) = %d entries, %v; want 3 (limit+1)", len(ents), err)
	}
}

// A missing file's error names the path as the caller gave it and the
// operation as os names it for a path ("stat", "open"), never os.Root's
// "statat"/"openat" (a recording's message read "statat …").
func TestRootErrorNamesPlainOp(t *testing.T) {
	dir := t.TempDir()
	r := NewRoot(dir)
	defer r.Close()
	missing := filepath.Join(dir, "nope.yaml")
	_, statErr := r.Stat(missing)
	_, readErr := r.ReadFile(missing, 100)
	for _, c := range []struct {
		err  error
		want string
	}{
		{statErr, "stat " + missing + ": no such file or directory"},
		{readErr, "stat " + missing + ": no such file or directory"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

// ReadDir refuses what is not a directory before opening it: a FIFO
// named as a directory (an include: glob's, an eval dataset's) once hung
// the run in open, waiting for a writer.
func TestRootReadDirRefusesNonDirectory(t *testing.T) {
	dir := t.TempDir()
	r := NewRoot(dir)
	defer r.Close()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{file: "a regular file"}
	if fifo := makeFIFO(t, dir); fifo != "" {
		paths[fifo] = "a FIFO"
		paths[filepath.Join(dir, "abslink")] = "a FIFO"
		if err := os.Symlink(fifo, filepath.Join(dir, "abslink")); err != nil {
			t.Fatal(err)
		}
	}
	for p, what := range paths {
		guard(t, p, func() {
			ents, err := r.ReadDir(p, 0)
			want := "readdir " + p + ": not a directory (" + what + "): point it at a directory"
			if err == nil || err.Error() != want || !errors.Is(err, syscall.ENOTDIR) || len(ents) != 0 {
				t.Errorf("ReadDir(%s) = %v, %v; want %q", p, ents, err, want)
			}
		})
	}
}

// guard fails the test when fn has not returned within a minute: a read
// that hangs (a FIFO opened, a loop walked forever).
func guard(t *testing.T, p string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: a read through the root hangs", p)
	}
}

// An absolute link inside the root is walked as the system walks it: a
// ".." after a symlink climbs from where the symlink led, a ".." after a
// missing name or a file is an error, never the lexical "root/f" (which
// read another file than the system would, or one where it reads none).
func TestRelinkedDotDotAsTheSystem(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f.txt": "top", "d/f.txt": "mid", "d/e/f.txt": "deep"})
	links := map[string]string{
		"l": "d/e", "vialink": dir + "/l/../f.txt", "missing": dir + "/nope/../f.txt",
		"file": dir + "/f.txt/../f.txt", "up": dir + "/../" + filepath.Base(dir) + "/f.txt",
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRoot(dir)
	defer r.Close()
	if b, err := r.ReadFile(filepath.Join(dir, "vialink"), Story); err != nil || string(b) != "mid" {
		t.Errorf("vialink: %q, %v; want what the system reads, %q", b, err, "mid")
	}
	for name, want := range map[string]error{"missing": fs.ErrNotExist, "file": syscall.ENOTDIR, "up": ErrOutsideRoot} {
		p := filepath.Join(dir, name)
		if b, err := r.ReadFile(p, Story); !errors.Is(err, want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q, %v; want %v naming %s", name, b, err, want, p)
		}
	}
}

// An absolute link inside the root to a FIFO or a directory is followed
// and then refused or listed as its target is, never opened to wait.
func TestRelinkedToFIFOAndDirectory(t *testing.T) {
	dir := t.TempDir()
	fifo := makeFIFO(t, dir)
	if fifo == "" {
		t.Skip("no FIFO here")
	}
	for link, target := range map[string]string{"tofifo": fifo, "todir": dir, "chain": filepath.Join(dir, "tofifo")} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRoot(dir)
	defer r.Close()
	for _, name := range []string{"tofifo", "chain"} {
		p := filepath.Join(dir, name)
		guard(t, p, func() {
			if _, err := r.ReadFile(p, Story); !errors.Is(err, errNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
				t.Errorf("ReadFile(%s): %v, want a FIFO refused", p, err)
			}
			if fi, err := r.Stat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("Stat(%s): %v, %v", p, fi, err)
			}
			if _, err := r.ReadDir(p, 0); !errors.Is(err, syscall.ENOTDIR) {
				t.Errorf("ReadDir(%s): %v, want ENOTDIR", p, err)
			}
		})
	}
	p := filepath.Join(dir, "todir")
	if _, err := r.ReadFile(p, Story); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("ReadFile(todir): %v", err)
	}
	if ents, err := r.ReadDir(filepath.Join(p, "todir"), 0); err != nil || len(ents) != 4 {
		t.Errorf("ReadDir(todir/todir) = %d entries, %v; want the root's 4", len(ents), err)
	}
}

// LeadsOut is true for a path inside the root as written whose way goes
// through a symlink out of it, present or dangling, and false for a link
// that stays inside, a loop, a missing path, and a path outside as written.
func TestRootLeadsOut(t *testing.T) {
	base, dir := rootTree(t)
	for link, target := range map[string]string{
		"root/gone": filepath.Join(base, "missing"), "root/gonerel": "../missing/deeper",
		"root/loopa": "loopb", "root/loopb": "loopa",
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRoot(dir)
	defer r.Close()
	for name, want := range map[string]bool{
		"esc": true, "absout": true, "absdir": true, "dir/out.txt": true, "absesc": true,
		"gone": true, "gonerel": true, "gone/below/file": true, "gonerel/x": true,
		"in.txt": false, "rel": false, "abs": false, "absdirin/s.txt": false, "sub/up": false,
		"loop": false, "loopa": false, "loopa/x": false, "missing/x": false, ".": false,
	} {
		if got := r.LeadsOut(filepath.Join(dir, name)); got != want {
			t.Errorf("LeadsOut(%s) = %v, want %v", name, got, want)
		}
	}
	for _, p := range []string{filepath.Join(base, "out.txt"), base, filepath.Join(dir, "..", "out.txt")} {
		if r.LeadsOut(p) {
			t.Errorf("LeadsOut(%s): a path outside as written was never inside", p)
		}
	}
	t.Chdir(dir)
	if !r.LeadsOut("esc") || !r.LeadsOut("gone/x") || r.LeadsOut("rel") {
		t.Error("a path relative to the working directory is taken from there")
	}
}
