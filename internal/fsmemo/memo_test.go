package fsmemo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// tree builds dir/{a.yaml,b.yaml,sub/c.yaml,link.yaml -> a.yaml,
// dirlink -> sub, dangling -> missing} and returns dir.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.yaml", "b.yaml", "sub/c.yaml", "x.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link.yaml": "a.yaml", "dirlink": "sub", "dangling": "missing"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A stat of a path in a listed directory is answered by the listing: a
// file created after the listing is not seen, one removed still is.
func TestStatAnsweredByListing(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	if _, err := m.ReadDir(dir); err != nil {
		t.Fatal(err)
	}
	late := filepath.Join(dir, "late.yaml")
	if err := os.WriteFile(late, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.yaml")); err != nil {
		t.Fatal(err)
	}
	_, err := m.Stat(late)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Op != "stat" || pe.Path != late || pe.Err != syscall.ENOENT {
		t.Fatalf("late file: %v, want the listing's ENOENT naming it", err)
	}
	if mode, err := m.Stat(filepath.Join(dir, "b.yaml")); err != nil || !mode.IsRegular() {
		t.Fatalf("removed file: %v %v, want the listing's regular file", mode, err)
	}
	if mode, err := m.Stat(filepath.Join(dir, "sub")); err != nil || !mode.IsDir() {
		t.Fatalf("sub: %v %v", mode, err)
	}
	// The listing itself is remembered too.
	es, _ := m.ReadDir(dir)
	if slices.ContainsFunc(es, func(e fs.DirEntry) bool { return e.Name() == "late.yaml" }) {
		t.Fatal("ReadDir listed the directory again")
	}
}

// A symlink entry is followed by a real stat, as os.Stat does.
func TestStatFollowsSymlinkEntries(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	m.ReadDir(dir)
	for name, want := range map[string]func(fs.FileMode, error) bool{
		"link.yaml": func(m fs.FileMode, err error) bool { return err == nil && m.IsRegular() },
		"dirlink":   func(m fs.FileMode, err error) bool { return err == nil && m.IsDir() },
		"dangling":  func(m fs.FileMode, err error) bool { return errors.Is(err, fs.ErrNotExist) },
	} {
		if mode, err := m.Stat(filepath.Join(dir, name)); !want(mode, err) {
			t.Errorf("%s: %v %v", name, mode, err)
		}
	}
	if mode, err := m.Lstat(filepath.Join(dir, "link.yaml")); err != nil || mode&fs.ModeSymlink == 0 {
		t.Errorf("Lstat link.yaml: %v %v", mode, err)
	}
}

// Without a listing, each path is stat'ed once: the answer stays.
func TestStatRemembered(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	p := filepath.Join(dir, "a.yaml")
	if _, err := m.Stat(p); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if _, err := m.Stat(p); err != nil {
		t.Fatalf("stat'ed again: %v", err)
	}
	if _, err := (*Memo)(nil).Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("nil memo: %v", err)
	}
}

// A path whose lexical form may not be where the system takes it is
// stat'ed afresh: not clean, or climbing out of the working directory.
func TestStatUnmemoizedForms(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	m.ReadDir(dir)
	late := filepath.Join(dir, "late.yaml")
	os.WriteFile(late, nil, 0o644)
	if _, err := m.Stat(dir + "/sub/../late.yaml"); err != nil {
		t.Fatalf("unclean path answered by the listing: %v", err)
	}
	if m.key("../x") != "" || m.key("a//b") != "" || m.key("") != "" {
		t.Fatal("key accepted a form it must not")
	}
}

// EvalSymlinks gives filepath.EvalSymlinks's answer; a missing path is
// os.IsNotExist.
func TestEvalSymlinksAgrees(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	m.ReadDir(dir)
	for _, rel := range []string{"a.yaml", "link.yaml", "sub", "sub/c.yaml", "dirlink", "dirlink/c.yaml", "."} {
		p := filepath.Join(dir, rel)
		want, werr := filepath.EvalSymlinks(p)
		got, gerr := m.EvalSymlinks(p)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: got %q %v, want %q %v", rel, got, gerr, want, werr)
		}
	}
	for _, rel := range []string{"missing", "dangling", "sub/missing", "nodir/x"} {
		if _, err := m.EvalSymlinks(filepath.Join(dir, rel)); !os.IsNotExist(err) {
			t.Errorf("%s: %v, want not-exist", rel, err)
		}
	}
	if _, err := m.EvalSymlinks(filepath.Join(dir, "a.yaml", "x")); err == nil || os.IsNotExist(err) {
		t.Errorf("through a file: %v, want ENOTDIR", err)
	}
	if got, _ := m.EvalSymlinks("relative"); got != "" {
		if want, _ := filepath.EvalSymlinks("relative"); got != want {
			t.Errorf("relative: %q", got)
		}
	}
}

// A directory is resolved once per run: re-pointing a link above a path
// after the first resolution does not change the answer.
func TestEvalSymlinksDirectoryOnce(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	first, err := m.EvalSymlinks(filepath.Join(dir, "dirlink", "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "other"), 0o755)
	os.WriteFile(filepath.Join(dir, "other", "d.yaml"), nil, 0o644)
	os.Remove(filepath.Join(dir, "dirlink"))
	os.Symlink("other", filepath.Join(dir, "dirlink"))
	got, err := m.EvalSymlinks(filepath.Join(dir, "dirlink", "d.yaml"))
	if err != nil || filepath.Dir(got) != filepath.Dir(first) {
		t.Fatalf("got %q %v: the directory was resolved again (first %q)", got, err, first)
	}
}

// Glob gives filepath.Glob's matches and errors.
func TestGlobAgrees(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	for _, pat := range []string{"*.yaml", "*", "sub/*.yaml", "s*/*.yaml", "a.yaml", "missing/*.yaml", "a.yaml/*", "[", "sub/[", "*.none", "?.yaml"} {
		want, werr := filepath.Glob(filepath.Join(dir, pat))
		got, gerr := m.Glob(filepath.Join(dir, pat))
		if !slices.Equal(got, want) || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: got %q %v, want %q %v", pat, got, gerr, want, werr)
		}
	}
	t.Chdir(dir)
	for _, pat := range []string{"*.yaml", "sub/*.yaml", "./*.yaml"} {
		want, _ := filepath.Glob(pat)
		if got, _ := m.Glob(pat); !slices.Equal(got, want) {
			t.Errorf("relative %s: got %q, want %q", pat, got, want)
		}
	}
}

func TestAbsAgrees(t *testing.T) {
	m := &Memo{}
	for _, p := range []string{".", "a/b", "../x", "/abs/../y", ""} {
		want, _ := filepath.Abs(p)
		if got, _ := m.Abs(p); got != want {
			t.Errorf("Abs(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestPrune(t *testing.T) {
	dir := tree(t)
	m := &Memo{}
	m.ReadDir(dir)
	m.ReadDir(filepath.Join(dir, "sub"))
	m.Prune(func(d string) bool { return filepath.Base(d) == "sub" })
	os.WriteFile(filepath.Join(dir, "late.yaml"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "late.yaml"), nil, 0o644)
	if _, err := m.Stat(filepath.Join(dir, "late.yaml")); err != nil {
		t.Errorf("pruned listing still answers: %v", err)
	}
	if _, err := m.Stat(filepath.Join(dir, "sub", "late.yaml")); err == nil {
		t.Error("kept listing was dropped")
	}
}

// A name the listing lacks is answered missing only when no file system
// could find it under another spelling: a name differing from an entry
// in case only (found on macOS), a non-ASCII or 8.3 name, are stat'ed.
func TestSurelyMissing(t *testing.T) {
	dir := tree(t)
	es, _ := os.ReadDir(dir)
	for name, want := range map[string]bool{
		".kitsoki": true, "evals": true, "late.yaml": true,
		"A.yaml": false, "SUB": false, "caf\u00e9.md": false, "PROGRA~1": false, "x.": false, "a b": false,
	} {
		if got := surelyMissing(name, es); got != want {
			t.Errorf("surelyMissing(%q) = %v, want %v", name, got, want)
		}
	}
	m := &Memo{}
	m.ReadDir(dir)
	os.WriteFile(filepath.Join(dir, "A.YAML"), nil, 0o644)
	if _, err := m.Stat(filepath.Join(dir, "A.YAML")); err != nil {
		t.Errorf("a case variant of an entry was answered from the listing: %v", err)
	}
}
