package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"kitsoki/pkg/story"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StoryFile is the manifest name of a story directory ([story.StoryFile]).
const StoryFile = story.StoryFile

// Expand turns command-line arguments into a sorted, de-duplicated list of
// app.yaml paths. No arguments means the current directory. An argument
// ending in "/..." (or equal to "...") finds every app.yaml below that
// directory, skipping hidden directories. A directory must contain an
// app.yaml; a file is taken as is.
func Expand(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		if arg == "-" {
			return nil, fmt.Errorf("-: a story read from standard input is checked alone: pass - as the only path (with --stdin-filename for its place)")
		}
		if arg == "..." || strings.HasSuffix(arg, "/...") || strings.HasSuffix(arg, string(filepath.Separator)+"...") {
			root := strings.TrimSuffix(strings.TrimSuffix(arg, "..."), "/")
			if root == "" {
				root = "."
			}
			found, err := walk(root)
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				return nil, fmt.Errorf("%s: no %s found below %s", arg, StoryFile, root)
			}
			for _, f := range found {
				add(f)
			}
			continue
		}
		st, err := os.Stat(arg)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file or directory", arg)
			}
			return nil, fmt.Errorf("%s: %v", arg, err)
		}
		if st.IsDir() {
			manifest := filepath.Join(arg, StoryFile)
			if _, err := os.Stat(manifest); err != nil {
				return nil, fmt.Errorf("%s: not a story directory (no %s); use %s/... to search below it", arg, StoryFile, strings.TrimSuffix(arg, "/"))
			}
			add(manifest)
			continue
		}
		add(arg)
	}
	slices.Sort(out)
	return out, nil
}

func walk(root string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == StoryFile {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// RepoRoot is the directory SARIF URIs are relative to: the nearest
// directory at or above the working directory holding .git, else the
// working directory.
func RepoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd
		}
		d = parent
	}
}
