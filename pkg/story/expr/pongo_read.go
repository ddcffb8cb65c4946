package expr

import (
	"errors"
	"fmt"
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
	roots = outermost(roots)
	var first error
	for _, r := range roots {
		if !underDir(r, p) {
			continue
		}
		b, err := readUnder(r, p)
		if err == nil || !errors.Is(err, safefile.ErrOutsideRoot) {
			return b, err
		}
		if first == nil {
			first = err
		}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		for _, r := range roots {
			if rr, err := filepath.EvalSymlinks(r); err == nil && underDir(rr, real) {
				if b, err := readUnder(rr, real); err == nil || !errors.Is(err, safefile.ErrOutsideRoot) {
					return b, err
				}
			}
		}
	}
	if first == nil {
		first = &os.PathError{Op: "read", Path: p, Err: fmt.Errorf("%w (roots: %v)", ErrOutsideRoots, roots)}
	}
	return nil, first
}

// outermost returns roots without those lying, as written, inside another
// of them.
func outermost(roots []string) []string {
	return slices.DeleteFunc(slices.Clone(roots), func(r string) bool {
		return slices.ContainsFunc(roots, func(e string) bool { return e != r && safefile.Within(e, r) })
	})
}

// readUnder reads p through a root opened at dir for this read alone (a
// loader lives as long as its story, so it keeps no descriptor open).
func readUnder(dir, p string) ([]byte, error) {
	r := safefile.NewRoot(dir)
	defer r.Close()
	return r.ReadFile(p, safefile.Story)
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
