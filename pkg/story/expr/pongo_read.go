package expr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/safefile"
)

// readTemplate reads the template file p through the template root of
// roots that holds it (a [safefile.Root]: os.Root, an absolute link inside
// followed), so the check Abs or CompileFile's caller made by path is made
// again by the open itself: a link swapped in after it (a story's host.run
// racing a render) reads as refused, never as the file it leads to. A
// link from one root into another is read as its resolution, through the
// root that holds that.
//
// Only the outermost roots are opened by their path (outermost): a root
// inside another one (a story's prompts/ beside the story directory) was
// checked not to lead out when the list was built (DropLinkedOut), and
// opening it by path later followed whatever link replaced it meanwhile,
// so its files are read through the root around it, which makes the same
// check at the open. The outer root reads all the inner one did: what the
// inner one refused as leading out of it fell through to the outer one.
func readTemplate(p string, roots []string) ([]byte, error) {
	var b []byte
	err := throughRoots(p, roots, func(r *safefile.Root, p string) (err error) {
		b, err = r.ReadFile(p, safefile.Story)
		return err
	})
	return b, err
}

// throughRoots runs op on p through the template root of roots that holds
// it (readTemplate): each outermost root p lies in as written, then, when
// every such root refused it as leading out, the root holding where p's
// links lead. op's answer is taken unless it is [safefile.ErrOutsideRoot];
// a path no root takes is the first refusal, or [ErrOutsideRoots].
func throughRoots(p string, roots []string, op func(r *safefile.Root, p string) error) error {
	roots = outermost(roots)
	var first error
	for _, r := range roots {
		if !underDir(r, p) {
			continue
		}
		err := underRoot(r, p, op)
		if err == nil || !errors.Is(err, safefile.ErrOutsideRoot) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		for _, r := range roots {
			if rr, err := filepath.EvalSymlinks(r); err == nil && underDir(rr, real) {
				if err := underRoot(rr, real, op); err == nil || !errors.Is(err, safefile.ErrOutsideRoot) {
					return err
				}
			}
		}
	}
	if first == nil {
		first = &os.PathError{Op: "read", Path: p, Err: fmt.Errorf("%w (roots: %v)", ErrOutsideRoots, roots)}
	}
	return first
}

// outermost returns roots without those lying, as written, inside another
// of them.
func outermost(roots []string) []string {
	return slices.DeleteFunc(slices.Clone(roots), func(r string) bool {
		return slices.ContainsFunc(roots, func(e string) bool { return e != r && safefile.Within(e, r) })
	})
}

// underRoot runs op on p through a root opened at dir for this call alone
// (a loader lives as long as its story, so it keeps no descriptor open).
func underRoot(dir, p string, op func(r *safefile.Root, p string) error) error {
	r := safefile.NewRoot(dir)
	defer r.Close()
	return op(r, p)
}

// readRoots are the roots a template read may go through. l.mu is held.
func (l *PongoLoader) readRoots() []string {
	return slices.Clone(l.roots())
}

// fileRoots are the roots CompileFile reads a caller's file through: the
// declared and confined ones, not the directories of the files it was
// given (a file given is not a root of its own). l.mu is held.
func (l *PongoLoader) fileRoots() []string {
	return safefile.DropLinkedOut(slices.DeleteFunc(append(l.declaredRoots(), l.confine...), func(d string) bool { return d == "" }))
}

// StatFile is os.Stat of path asked through the roots CompileFile reads it
// through, so what it tells matches what CompileFile would read: a path
// whose symlinks lead out of the roots (or one swapped for such a link
// since the caller's check) is [safefile.ErrOutsideRoot] or
// [ErrOutsideRoots], never whether its target exists or is a directory.
func (l *PongoLoader) StatFile(path string) (fs.FileInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	l.mu.Lock()
	roots := l.fileRoots()
	l.mu.Unlock()
	if len(roots) == 0 {
		roots = []string{filepath.Dir(abs)}
	}
	return statThrough(abs, roots)
}

// statThroughRoots is StatFile through every template root (an include's
// candidates may lie in a compiled file's directory). l.mu is held.
func (l *PongoLoader) statThroughRoots(p string) (fs.FileInfo, error) {
	return statThrough(p, l.roots())
}

// statThrough is os.Stat of p through the root of roots holding it
// (throughRoots).
func statThrough(p string, roots []string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := throughRoots(p, roots, func(r *safefile.Root, p string) (err error) {
		fi, err = r.Stat(p)
		return err
	})
	return fi, err
}
