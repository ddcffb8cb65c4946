package plugin

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// repoRoot is the checkout a story in dir belongs to: the nearest
// directory at or above it holding .git, else its project root (the
// nearest holding .git or .kitsoki/, else dir). Every profile and manifest
// inside it is the repository's, so it is read through the Root: a
// symlink leading out of the checkout is refused unread. Profiles above it
// are the operator's and are read as they are.
func repoRoot(dir string) *safefile.Root {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	if r, ok := story.GitRoot(abs); ok {
		return safefile.NewRoot(r)
	}
	r, _ := story.ProjectRoot(abs)
	return safefile.NewRoot(r)
}

// readConfined reads p (Data cap) through root when p lies inside it,
// else directly: the repository's files never reach outside the checkout.
func readConfined(root *safefile.Root, p string) ([]byte, error) {
	abs, err := filepath.Abs(p)
	if err == nil && root != nil {
		if _, inside := root.Rel(abs); inside {
			return root.ReadFile(abs, safefile.Data)
		}
	}
	return safefile.ReadFile(p, safefile.Data)
}

// outsideText is the reason given for a repository file that a symlink
// leads out of the checkout (err from a Root): it names the checkout and
// the fix, never where the link points.
func outsideText(root *safefile.Root, err error) string {
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return "it goes through a symlink leading out of the repository " + root.Dir() + ", and nothing outside the repository is read; put the file itself there, or a link that stays inside"
	}
	return safefile.ErrText(err)
}

// present reports whether p is there to be looked at: a directory (dir) or
// a file that is not one, or a symbolic link, whether its target exists or
// not. A link is then read through the repository's root, which refuses
// one leading out with the same words dangling or not: followed here, a
// link to an existing file or directory outside was refused while a
// dangling one was passed over, so a repository's .kitsoki/plugins.yaml
// or .kitsoki linked out told from the exit code which paths the machine
// checking it holds (red team 47).
func present(p string, dir bool) bool {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return false
	case fi.Mode()&fs.ModeSymlink != 0:
		return true
	default:
		return fi.IsDir() == dir
	}
}
