package host

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// errGitDir is ctx.fs's refusal of a path inside a .git directory.
var errGitDir = errors.New("kitsoki's ctx.fs does not read version-control metadata")

// inGitDir reports whether abs, a path inside root, lies in a directory
// named .git (any case: a case-insensitive file system opens .GIT as
// .git), by its name or by where its symbolic links lead. A checkout's
// .git/config may hold the credential the CI job fetched with
// (actions/checkout's persisted token), and kitsoki test --sandbox run
// from the checkout has the checkout as ctx.fs's working directory: a
// pull request's script read it and printed it reversed, past the log
// masker, in a failing expectation. No story needs to read .git.
func inGitDir(root, abs string) bool {
	if hasGitPart(root, abs) {
		return true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	// the longest part of abs that exists, with its links followed
	probe, rest := abs, ""
	for {
		if r, err := filepath.EvalSymlinks(probe); err == nil {
			return hasGitPart(realRoot, filepath.Join(r, rest))
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			return false
		}
		rest = filepath.Join(filepath.Base(probe), rest)
		probe = parent
	}
}

// hasGitPart reports whether p, below base, has a component named .git.
func hasGitPart(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return false
	}
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// refuseGitDir is fsResolve's check of a resolved path.
func refuseGitDir(root, p, abs string) error {
	if inGitDir(root, abs) {
		return fmt.Errorf("starlark fs: path %q is inside a .git directory (%w); read the story's own files", p, errGitDir)
	}
	return nil
}

// gitFree drops the glob matches inside a .git directory.
func gitFree(root string, ms []string) []string {
	out := ms[:0]
	for _, m := range ms {
		if !inGitDir(root, m) {
			out = append(out, m)
		}
	}
	return out
}
