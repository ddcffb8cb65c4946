package doccheck

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goFileName is a Go file a doc.go names: "run.go", "pkg/x/y.go", or a
// pattern ("starlark_*.go", "rule_<name>.go").
var goFileName = regexp.MustCompile(`[\w./*<>-]*[\w*>]\.go\b`)

// placeholder is a "<name>" inside a file pattern.
var placeholder = regexp.MustCompile(`<[^<>/]*>`)

// TestDocGoFilesExist: each file a package's doc.go names exists, beside
// it or from the module root, and each pattern it names matches a file.
func TestDocGoFilesExist(t *testing.T) {
	dir := root(t)
	n := 0
	isDoc := func(rel string) bool { return path.Base(rel) == "doc.go" }
	sources(t, dir, false, isDoc, func(rel string, src []byte) {
		for i, line := range strings.Split(string(src), "\n") {
			for _, name := range goFileName.FindAllString(line, -1) {
				n++
				if !named(dir, path.Dir(rel), name) {
					t.Errorf("%s:%d: names %s, which is not in %s nor under the module root; correct the name or drop it", rel, i+1, name, path.Dir(rel))
				}
			}
		}
	})
	if n < 100 {
		t.Fatalf("found %d file names in the module's doc.go files, want the 100+ they hold", n)
	}
}

// named reports whether name, a file or a pattern, matches a file in the
// package folder pkg or, holding a slash, from the module root.
func named(dir, pkg, name string) bool {
	pattern := placeholder.ReplaceAllString(strings.TrimPrefix(name, "./"), "*")
	for _, base := range []string{pkg, "."} {
		m, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(base), filepath.FromSlash(pattern)))
		if err == nil && len(m) > 0 {
			return true
		}
	}
	return false
}
