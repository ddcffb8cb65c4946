package host

import (
	"errors"
	"fmt"
	"slices"

	"kitsoki/internal/safefile"
)

// errGitDir is ctx.fs's refusal of a path inside a .git directory.
var errGitDir = errors.New("kitsoki's ctx.fs does not read version-control metadata")

// refuseGitDir is fsResolve's check of a resolved path: nothing inside a
// .git directory (safefile.InGitDir). kitsoki test --sandbox run from a
// checkout has the checkout as ctx.fs's working directory, and a pull
// request's script read .git/config and printed it reversed, past the log
// masker, in a failing expectation. No story needs to read .git.
func refuseGitDir(root, p, abs string) error {
	if safefile.InGitDir(root, abs) {
		return fmt.Errorf("starlark fs: path %q is inside a .git directory (%w); read the story's own files", p, errGitDir)
	}
	return nil
}

// gitFree drops the glob matches inside a .git directory.
func gitFree(root string, ms []string) []string {
	return slices.DeleteFunc(ms, func(m string) bool { return safefile.InGitDir(root, m) })
}
