package host

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// Without an inspect cassette, ctx.fs reads relative paths under
// fsRootDir with upstream's errors (conformance star-fs); an absolute
// path, one that climbs out, or (kitsoki's addition) one that leads out
// through a symbolic link is refused. glob is filepath.Glob, its matches
// relative and sorted.

// fsRootDir is the directory ctx.fs reads: the working directory when it
// lies inside the story's project root ([story.ProjectRoot]), else the
// story directory alone, so a story never reads outside its project.
func fsRootDir(storyDir string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("starlark fs: %v", err)
	}
	if storyDir != "" {
		if abs, err := filepath.Abs(storyDir); err == nil {
			if root, _ := story.ProjectRoot(abs); !within(root, wd) {
				return abs, nil
			}
		}
	}
	return wd, nil
}

// fsResolve checks a script path (or glob pattern) against the root and
// returns it absolute.
func fsResolve(root, p string) (string, error) {
	if filepath.IsAbs(p) {
		return "", fmt.Errorf("starlark fs: path %q must be repo-relative, not absolute", p)
	}
	if c := filepath.Clean(p); c == ".." || strings.HasPrefix(c, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("starlark fs: path %q escapes the working directory", p)
	}
	abs, err := confine("starlark fs", "path", root, p)
	if err != nil {
		return "", err
	}
	if err := refuseGitDir(root, p, abs); err != nil {
		return "", err
	}
	return abs, nil
}

// fsReadFile is fs.read without a cassette.
func fsReadFile(storyDir, p string) (string, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return "", err
	}
	abs, err := fsResolve(root, p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if alt, ok := fsInStory(storyDir, root, p); ok {
			abs = alt
			fi, err = os.Stat(abs)
		}
	}
	if err != nil {
		return "", fmt.Errorf("starlark fs.read %q: %v", p, err)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("starlark fs.read %q: read %s: is a directory", p, abs)
	}
	b, err := safefile.ReadFile(abs, maxFSRead)
	if err != nil {
		return "", fmt.Errorf("starlark fs.read %q: %s", p, safefile.ErrText(err))
	}
	return string(b), nil
}

// fsInStory is p in the story directory when the working directory is
// elsewhere and p exists there.
func fsInStory(storyDir, root, p string) (string, bool) {
	if storyDir == "" || storyDir == root {
		return "", false
	}
	abs, err := fsResolve(storyDir, p)
	if err != nil {
		return "", false
	}
	if _, err := os.Stat(abs); err != nil {
		return "", false
	}
	return abs, true
}

// fsExistsFile is fs.exists without a cassette.
func fsExistsFile(storyDir, p string) (bool, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return false, err
	}
	abs, err := fsResolve(root, p)
	if err != nil {
		return false, err
	}
	if _, err = os.Stat(abs); err == nil {
		return true, nil
	}
	_, ok := fsInStory(storyDir, root, p)
	return ok, nil
}

// fsGlobFiles is fs.glob without a cassette: at most maxGlob matches.
func fsGlobFiles(storyDir, pat string) ([]string, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return nil, err
	}
	out, err := fsGlobIn(root, pat)
	if err != nil || len(out) > 0 || storyDir == "" || storyDir == root {
		return out, err
	}
	return fsGlobIn(storyDir, pat)
}

// fsGlobIn globs pat under root, its matches relative to root and sorted.
func fsGlobIn(root, pat string) ([]string, error) {
	abs, err := fsResolve(root, pat)
	if err != nil {
		return nil, err
	}
	ms, err := filepath.Glob(abs)
	if err != nil {
		return nil, fmt.Errorf("starlark fs.glob %q: %v", pat, err) // filepath.ErrBadPattern's text
	}
	ms = gitFree(root, ms)
	if len(ms) > maxGlob {
		return nil, fmt.Errorf("starlark fs.glob %q: more than %d paths match; narrow the pattern", pat, maxGlob)
	}
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		rel, err := filepath.Rel(root, m)
		if err != nil {
			return nil, fmt.Errorf("starlark fs.glob %q: %v", pat, err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out, nil
}
