package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// StoryFile is the manifest name of a story directory ([story.StoryFile]).
const StoryFile = story.StoryFile

// Trees are the directories args name as trees of stories (DIR/...), for
// [story.Options].Trees.
func Trees(args []string) []string {
	var out []string
	for _, arg := range args {
		if root, ok := treeRoot(arg); ok {
			out = append(out, root)
		}
	}
	return out
}

// SiblingTrees are the folders holding each story's folder, for `kitsoki
// test flows APP.yaml`, whose stories import their siblings; the
// filesystem's root is never one.
func SiblingTrees(apps []string) []string {
	var trees []string
	for _, app := range apps {
		abs, err := filepath.Abs(app)
		if err != nil {
			continue
		}
		if tree := filepath.Dir(filepath.Dir(abs)); filepath.Dir(tree) != tree {
			trees = append(trees, tree)
		}
	}
	return trees
}

// treeRoot is the directory a DIR/... (or ...) argument names as a tree
// of stories; false for any other argument.
func treeRoot(arg string) (string, bool) {
	if arg != "..." && !strings.HasSuffix(arg, "/...") && !strings.HasSuffix(arg, string(filepath.Separator)+"...") {
		return "", false
	}
	if root := strings.TrimSuffix(strings.TrimSuffix(arg, "..."), "/"); root != "" {
		return root, true
	}
	return ".", true
}

// Expand turns command-line arguments into a sorted, de-duplicated list of
// app.yaml paths ("." when none). DIR/... finds every app.yaml below DIR
// (walk); a directory must contain an app.yaml; a file is taken as is.
func Expand(args []string, warn func(string)) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	for _, arg := range args {
		if arg == "-" {
			return nil, fmt.Errorf("-: a story read from standard input is checked alone: pass - as the only path (with --stdin-filename for its place)")
		}
		if root, ok := treeRoot(arg); ok {
			found, err := walk(root, warn)
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				return nil, fmt.Errorf("%s: no %s found below %s", arg, StoryFile, root)
			}
			for _, f := range found {
				out = append(out, filepath.Clean(f))
			}
			continue
		}
		st, err := os.Stat(arg)
		if err != nil {
			return nil, StatError(arg, err, StoryArgFix)
		}
		if st.IsDir() {
			manifest := filepath.Join(arg, StoryFile)
			// Lstat: a link counts as the manifest whether its target exists
			// or not, and the load refuses one leading out of the project
			// (one answer, so no output tells which paths exist outside).
			if _, err := os.Lstat(manifest); err != nil {
				return nil, fmt.Errorf("%s: not a story directory (no %s); use %s/... to search below it", arg, StoryFile, strings.TrimSuffix(arg, "/"))
			}
			out = append(out, filepath.Clean(manifest))
			continue
		}
		if fe := AsFixture(arg); fe != nil {
			return nil, fe
		}
		out = append(out, filepath.Clean(arg))
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out, nil
}

// maxWalkDepth bounds how many directories below its root a DIR/... walk
// descends.
const maxWalkDepth = 64

// maxPathLen is the length from which a path is too long to open by its
// name on Linux (PATH_MAX, with its NUL); a story found below a directory
// named that long could not be loaded, so the walk skips it as too deep.
const maxPathLen = 4096

// walk returns the app.yaml files below root (symlinks not followed),
// skipping hidden directories and node_modules, and directories too deep
// or too long to open, of which warn (when set) hears once. The tree is
// listed through a root of root (safefile.WalkRoot): a directory swapped
// for a symbolic link while it is walked is skipped, whatever lies where
// the link leads, and nothing outside is listed.
func walk(root string, warn func(string)) ([]string, error) {
	return walkHooked(root, warn, nil)
}

// walkHooked is walk; listing, when set (tests), runs as the walk is about
// to list the directory rel below root, to swap it.
func walkHooked(root string, warn func(string), listing func(rel string)) ([]string, error) {
	fi, err := os.Lstat(root)
	if err != nil {
		if s := siblingSuggestion(root); s != "" && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file or directory; %s", root, yamlnode.Meant(s+"/..."))
		}
		return nil, StatError(root, err, "give the directory to search below, as DIR/...")
	}
	if !fi.IsDir() { // a link or a file stands for itself, never followed
		if filepath.Base(root) == StoryFile {
			return []string{root}, nil
		}
		return nil, nil
	}
	top, err := safefile.OpenDirRoot(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", root, err)
	}
	defer top.Close()
	var found, deep []string
	var failed error
	err = safefile.WalkRoot(top, ".", func(rel string, d fs.DirEntry, err error) error {
		p := filepath.Join(root, rel)
		switch {
		case err != nil && errors.Is(err, syscall.ENAMETOOLONG):
			deep = append(deep, p)
			return filepath.SkipDir
		case err != nil:
			if pe, ok := errors.AsType[*fs.PathError](err); ok {
				err = pe.Err // it names the (maybe long) path again
			}
			failed = fmt.Errorf("%s: %v", termsafe.ShortPath(p), err)
			return failed
		case !d.IsDir():
			if d.Name() == StoryFile {
				found = append(found, p)
			}
		case strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules":
			return filepath.SkipDir
		case strings.Count(rel, string(filepath.Separator))+1 > maxWalkDepth || len(p) >= maxPathLen:
			deep = append(deep, p)
			return filepath.SkipDir
		case listing != nil:
			listing(rel)
		}
		return nil
	})
	if err != nil && err != failed { // listing the top
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err
		}
		err = fmt.Errorf("%s: %v", termsafe.ShortPath(root), err)
	}
	if len(deep) > 0 && warn != nil {
		warn(skippedDeep(root, deep))
	}
	return found, err
}

// skippedDeep is the one warning about the directories a walk of root
// skipped for their depth.
func skippedDeep(root string, deep []string) string {
	more := ""
	if len(deep) > 1 {
		more = fmt.Sprintf(" and %d more", len(deep)-1)
	}
	return fmt.Sprintf("%s/...: skipped %s%s: more than %d directories below %s, or a path too long to open; no story there was checked (name one by its own path)",
		termsafe.ShortPath(root), termsafe.ShortPath(deep[0]), more, maxWalkDepth, termsafe.ShortPath(root))
}

// RepoRoot is the directory SARIF URIs are relative to: the nearest one
// at or above the working directory holding .git, else that directory.
func RepoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if root, found := story.GitRoot(wd); found {
		return root
	}
	return wd
}
