package eval

import (
	"errors"
	"fmt"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// datasetRoot is the project root a dataset's files are confined to (its
// own file and its app:): the nearest directory holding .git or .kitsoki/
// at or above the folder holding the dataset's folder (the story's
// directory, for evals/<call>.yaml), else that folder. The dataset's own
// folder is not asked, so an evals/ that is a symlink cannot choose it.
func datasetRoot(abs string) *safefile.Root {
	r, _ := story.ProjectRoot(filepath.Dir(filepath.Dir(abs)))
	return safefile.NewRoot(r)
}

// readDataset reads the dataset at abs (shown as path) through its
// project root: a dataset reached through a symlink leading out of it is
// refused unread (outside is true, err the whole message).
func readDataset(abs, path string) (data []byte, outside bool, err error) {
	root := datasetRoot(abs)
	defer root.Close()
	data, err = root.ReadFile(abs, safefile.Data)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, true, fmt.Errorf("eval dataset %s: it goes through a symlink leading out of the project root %s (or an absolute one); nothing outside the root is read: put the dataset itself there, or a relative link that stays inside", path, root.Dir())
	}
	return data, false, err
}

// appOutside says why the app: of the dataset at datasetAbs, resolved to
// appPath, may not be loaded ("" when it may): it must lie inside the
// dataset's project root, through every symlink on the way.
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
