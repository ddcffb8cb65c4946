package eval

import (
	"errors"
	"fmt"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// datasetRoot is the project root a dataset's files are confined to,
// looked up from the folder above the dataset's, so an evals/ symlink
// cannot choose it.
func datasetRoot(abs string) *safefile.Root {
	r, _ := story.ProjectRoot(filepath.Dir(filepath.Dir(abs)))
	return safefile.NewRoot(r)
}

// readDataset reads the dataset at abs through its project root; one
// reached through a symlink leading out is refused unread (outside).
func readDataset(abs, path string) (data []byte, outside bool, err error) {
	root := datasetRoot(abs)
	defer root.Close()
	data, err = root.ReadFile(abs, safefile.Data)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, true, fmt.Errorf("eval dataset %s: it goes through a symlink leading out of the project root %s; nothing outside the root is read: put the dataset itself there, or a link that stays inside", path, root.Dir())
	}
	return data, false, err
}

// appOutside says why the dataset's app:, resolved to appPath, may not be
// loaded ("" when it may).
func appOutside(datasetAbs, written, appPath string) string {
	root := datasetRoot(datasetAbs)
	defer root.Close()
	if _, ok := root.Rel(appPath); ok && root.Inside(appPath) {
		return ""
	}
	return story.OutsideRootMessage(root, "app", written, errOutsideFor(root, appPath))
}

// errOutsideFor is the Root's error for appPath: lexically outside, or a
// symlink on the way leading out (OutsideRootMessage words each).
func errOutsideFor(root *safefile.Root, appPath string) error {
	if _, ok := root.Rel(appPath); !ok {
		_, err := root.Resolve("/", appPath)
		return err
	}
	_, err := root.Stat(appPath)
	return err
}
