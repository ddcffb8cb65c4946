package host

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
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
	// Walk only below the pattern's literal prefix (docs/ for docs/**/*.md).
	start := root
	for _, sg := range segs[:len(segs)-1] {
		if strings.ContainsAny(sg, "*?[\\") {
			break
		}
		start = filepath.Join(start, sg)
	}
	if _, err := os.Stat(start); err != nil {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != start && strings.HasPrefix(d.Name(), ".") && !strings.HasPrefix(pattern, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
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
