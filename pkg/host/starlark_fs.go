package host

import (
	"errors"
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
			if root, _ := story.ProjectRoot(abs); !safefile.Within(root, wd) {
				return abs, nil
			}
		}
	}
	return wd, nil
}

// fsResolve checks a script path (or glob pattern) against the root
// and returns it absolute.
func fsResolve(fr *fileRoot, p string) (string, error) {
	if filepath.IsAbs(p) {
		return "", fmt.Errorf("starlark fs: path %q must be repo-relative, not absolute", p)
	}
	if c := filepath.Clean(p); c == ".." || strings.HasPrefix(c, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("starlark fs: path %q escapes the working directory", p)
	}
	abs, err := fr.confine("starlark fs", "path", p)
	if err != nil {
		return "", err
	}
	if err := refuseGitDir(fr.dir, p, abs); err != nil {
		return "", err
	}
	return abs, nil
}

// fsOpen opens dir, the directory ctx.fs reads, as the root every read
// goes through (a link swapped in after a path's check cannot lead out),
// and resolves p (a path or glob pattern) against it (fsResolve). The
// caller closes the root; on an error none is left open.
func fsOpen(dir, p string, checked func(string)) (*fileRoot, string, error) {
	fr, err := readFileRoot(dir, checked)
	if err != nil {
		return nil, "", fmt.Errorf("starlark fs: %v", err)
	}
	abs, err := fsResolve(fr, p)
	if err != nil {
		fr.Close()
		return nil, "", err
	}
	return fr, abs, nil
}

// fsReadFile is fs.read without a cassette.
func fsReadFile(storyDir, p string, checked func(string)) (string, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return "", err
	}
	fr, abs, err := fsOpen(root, p, checked)
	if err != nil {
		return "", err
	}
	defer fr.Close()
	fi, err := fr.Stat(abs)
	if err != nil {
		if sr, alt, ok := fsInStory(storyDir, root, p, checked); ok {
			defer sr.Close()
			fr, abs = sr, alt
			fi, err = fr.Stat(abs)
		}
	}
	if err != nil {
		return "", fmt.Errorf("starlark fs.read %q: %v", p, err)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("starlark fs.read %q: read %s: is a directory", p, abs)
	}
	b, err := fr.ReadFile(abs, maxFSRead)
	if err != nil {
		return "", fmt.Errorf("starlark fs.read %q: %s", p, safefile.ErrText(err))
	}
	return string(b), nil
}

// fsInStory is p in the story directory, with the root it is read
// through (the caller closes it), when the working directory is
// elsewhere and p exists there.
func fsInStory(storyDir, root, p string, checked func(string)) (*fileRoot, string, bool) {
	if storyDir == "" || storyDir == root {
		return nil, "", false
	}
	sr, abs, err := fsOpen(storyDir, p, checked)
	if err != nil {
		return nil, "", false
	}
	if _, err := sr.Stat(abs); err != nil {
		sr.Close()
		return nil, "", false
	}
	return sr, abs, true
}

// fsExistsFile is fs.exists without a cassette.
func fsExistsFile(storyDir, p string, checked func(string)) (bool, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return false, err
	}
	fr, abs, err := fsOpen(root, p, checked)
	if err != nil {
		return false, err
	}
	defer fr.Close()
	if _, err = fr.Stat(abs); err == nil {
		return true, nil
	}
	if errors.Is(err, errOutside) {
		// a link swapped in since the check: refused as the check refuses one
		return false, fmt.Errorf("starlark fs: path %q leads outside %s through a symbolic link (%w)", p, root, errOutside)
	}
	sr, _, ok := fsInStory(storyDir, root, p, checked)
	if ok {
		sr.Close()
	}
	return ok, nil
}

// fsGlobFiles is fs.glob without a cassette: at most maxGlob matches.
func fsGlobFiles(storyDir, pat string, checked func(string)) ([]string, error) {
	root, err := fsRootDir(storyDir)
	if err != nil {
		return nil, err
	}
	out, err := fsGlobIn(root, pat, checked)
	if err != nil || len(out) > 0 || storyDir == "" || storyDir == root {
		return out, err
	}
	return fsGlobIn(storyDir, pat, checked)
}

// fsGlobIn globs pat under root, its matches relative to root and sorted.
// A match whose way leads out of root through a symbolic link (a
// directory link matched by a wildcard) is left out, and never listed:
// the root cannot reach it, and its name would tell what the machine
// holds outside. The matches are filepath.Glob's that fr reaches.
func fsGlobIn(root, pat string, checked func(string)) ([]string, error) {
	fr, abs, err := fsOpen(root, pat, checked)
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	// listed through a root of the directory: one a link leads out to is
	// never listed (a link to / made a wildcard walk the machine)
	sr := safefile.NewRoot(root)
	ms, _, err := story.Glob(sr, abs)
	sr.Close()
	if err != nil {
		return nil, fmt.Errorf("starlark fs.glob %q: %v", pat, err) // filepath.ErrBadPattern's text
	}
	ms = gitFree(root, ms)
	ms = slices.DeleteFunc(ms, func(m string) bool {
		_, err := fr.Lstat(m)
		return err != nil
	})
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
