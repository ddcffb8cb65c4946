package flowtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// WriteUpdate writes each file of u in place, atomically, through a
// symlink, only inside the story's project root and only when unchanged
// since the run read it; the error names each file not written and why.
func (r *Runner) WriteUpdate(u *Update) error {
	var errs []error
	for _, fu := range u.Files {
		if err := r.writeFile(fu); err != nil {
			errs = append(errs, fmt.Errorf("%s: not updated: %v", fu.Path, err))
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
	if !safefile.Inside(root, real) {
		return fmt.Errorf("it leads out of the project root %s; nothing outside the root is written (pass --root DIR naming a directory that holds it)", root)
	}
	now, err := safefile.ReadFile(real, maxFixtureBytes)
	if err != nil {
		return fmt.Errorf("cannot read it again: %s", safefile.Reason(err))
	}
	if !bytes.Equal(now, fu.Old) {
		return errors.New("it changed while the fixtures ran; run kitsoki test --update again")
	}
	info, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("cannot stat it: %s", safefile.Reason(err))
	}
	return atomicfile.Write(real, fu.New, info.Mode().Perm())
}
