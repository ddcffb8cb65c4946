package host

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
)

// glob returns the files under root matching pattern (slash-separated,
// relative to root; "**" matches any number of directories), sorted and
// relative to root. A pattern reaching outside root is refused; at most
// max matches are returned, more is an error.
func glob(root, pattern string, max int) ([]string, error) {
	pattern = filepath.ToSlash(strings.TrimSpace(pattern))
	if pattern == "" {
		return nil, fmt.Errorf("the pattern is empty")
	}
	if path.IsAbs(pattern) || pattern == ".." || strings.HasPrefix(pattern, "../") || strings.Contains(pattern, "/../") {
		return nil, fmt.Errorf("pattern %q reaches outside %s; use a pattern relative to it", pattern, root)
	}
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("pattern %q is malformed: %v", pattern, err)
	}
	segs := strings.Split(path.Clean(pattern), "/")
	// Walk only below the pattern's literal prefix (docs/ for docs/**/*.md),
	// through an os.Root of root: a directory link on the way that leads
	// out, there before the walk or swapped in during it, is not entered.
	start := "."
	for _, sg := range segs[:len(segs)-1] {
		if strings.ContainsAny(sg, "*?[\\") {
			break
		}
		start = path.Join(start, sg)
	}
	r, err := safefile.OpenDirRoot(root)
	if err != nil {
		return nil, nil
	}
	defer r.Close()
	if st, err := r.Lstat(start); err != nil || !st.IsDir() {
		return nil, nil // missing, a file, or a link (never followed, as before)
	}
	var out []string
	err = fs.WalkDir(r.FS(), start, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if rel != start && strings.HasPrefix(d.Name(), ".") && !strings.HasPrefix(pattern, ".") {
				return fs.SkipDir
			}
			return nil
		}
		if matchSegs(segs, strings.Split(rel, "/")) {
			if len(out) >= max {
				return fmt.Errorf("more than %d files match %q; narrow the pattern", max, pattern)
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

func matchSegs(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchSegs(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && matchSegs(pat[1:], name[1:])
}
