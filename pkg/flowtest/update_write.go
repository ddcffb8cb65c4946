package flowtest

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// WriteUpdate writes each file of u in place, atomically, through a
// symlink, only inside the story's project root and only when unchanged
// since the run read it; the error names each file not written and why,
// and u's counts then leave out what those files would have changed.
func (r *Runner) WriteUpdate(u *Update) error {
	var errs []error
	for _, fu := range u.Files {
		if err := r.writeFile(fu); err != nil {
			errs = append(errs, fmt.Errorf("%s: not updated: %v", fu.Path, err))
			u.Fixtures -= fu.fixtures
			u.Changes -= fu.changes
			u.Unwritten++
		}
	}
	return errors.Join(errs...)
}

func (r *Runner) writeFile(fu *FileUpdate) error {
	var st *story.Story
	if ld, err := r.Story(fu.Story); err == nil {
		st = ld.Story
	}
	root := namedRoot(st, fu.Path)
	real, err := filepath.EvalSymlinks(absOf(fu.Path))
	if err != nil {
		return fmt.Errorf("cannot find the file: %s", safefile.Reason(err))
	}
	leadsOut := fmt.Errorf("it leads out of the project root %s; nothing outside the root is written (pass --root DIR naming a directory that holds it)", root)
	pr := safefile.NewRoot(root)
	defer pr.Close()
	rel, ok := pr.Rel(real)
	if !ok || !pr.Inside(real) {
		return leadsOut
	}
	if r.writing != nil {
		r.writing(real)
	}
	// From here every look goes through the root: a directory on the way
	// swapped for a link out since the check is refused, never followed.
	now, err := pr.ReadFile(real, maxFixtureBytes)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return leadsOut
	}
	if err != nil {
		return fmt.Errorf("cannot read it again: %s", safefile.Reason(err))
	}
	if !bytes.Equal(now, fu.Old) {
		return errors.New("it changed while the fixtures ran; run kitsoki test --update again")
	}
	info, err := pr.Stat(real)
	if err != nil {
		return fmt.Errorf("cannot stat it: %s", safefile.Reason(err))
	}
	or, err := safefile.OpenDirRoot(root)
	if err != nil {
		return fmt.Errorf("cannot open the project root: %s", safefile.Reason(err))
	}
	defer or.Close()
	if err := atomicfile.WriteIn(or, rel, fu.New, info.Mode().Perm()); err != nil {
		if safefile.IsEscape(err) {
			return leadsOut
		}
		return err
	}
	return nil
}
