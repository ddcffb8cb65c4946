package safefile

import (
	"errors"
	"path/filepath"
	"strings"
)

// ErrInGitDir is the refusal of a file a repository names (a story's
// include, import or manifest, a fixture, an intents file, a recording)
// inside a .git directory, by name or through a link: it is not read.
var ErrInGitDir = errors.New("it is inside a .git directory, where nothing is read (a checkout's .git/config may hold the CI job's token); name a file of the project")

// InGitDir reports whether abs, a path below root, lies in a directory
// named .git (any case: a case-insensitive file system opens .GIT as
// .git), by its name or by where its symbolic links lead. A checkout's
// .git/config may hold the credential a CI job fetched with
// (actions/checkout keeps its token there by default), so what a story
// reads and may print (Starlark's ctx.fs, templates) never comes from
// there.
func InGitDir(root, abs string) bool {
	if hasGitPart(root, abs) {
		return true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	return realInGitDir(realRoot, abs)
}

// InGitDir is [InGitDir] of abs below the root's directory, whose own
// links are followed once per Root ([Root.realDir]).
func (r *Root) InGitDir(abs string) bool {
	return hasGitPart(r.dir, abs) || realInGitDir(r.realDir(), abs)
}

// realInGitDir reports whether abs, its links followed, has a part named
// .git below realRoot (a directory with its links followed).
func realInGitDir(realRoot, abs string) bool {
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
