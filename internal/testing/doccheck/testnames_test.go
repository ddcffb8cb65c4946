package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testName is a test, benchmark or fuzz target a doc names; a name given
// as a -run prefix (TestLiveLocalLLM) counts for the tests it selects.
var testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z]\w*`)

// declaredFunc is the declaration of one in a _test.go file.
var declaredFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`)

// TestDocsNameRealTests: each test, benchmark or fuzz target that
// README.md, ARCHITECTURE.md, CONTRIBUTING.md, SECURITY.md or a page under
// docs/ names is declared (or, as a -run prefix, begins one that is), in
// the module or in a program under testdata (an example's failing test). A
// line about the placeholder package ./pkg/x is an example, not a claim.
func TestDocsNameRealTests(t *testing.T) {
	dir := root(t)
	var declared []string
	sources(t, dir, true, isTest, func(rel string, src []byte) {
		for _, m := range declaredFunc.FindAllStringSubmatch(string(src), -1) {
			declared = append(declared, m[1])
		}
	})
	docs := []string{"README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "SECURITY.md"}
	err := filepath.WalkDir(filepath.Join(dir, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(dir, p)
			docs = append(docs, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, doc := range docs {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "./pkg/x") {
				continue
			}
			for _, name := range testName.FindAllString(line, -1) {
				n++
				if !begins(declared, name) {
					t.Errorf("%s:%d: names %s, which no _test.go file of the module declares (nor any test it begins); correct the name", doc, i+1, name)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("found %d test names in the docs, want the 100+ they hold", n)
	}
}

// begins reports whether a declared name is name or starts with it.
func begins(declared []string, name string) bool {
	for _, d := range declared {
		if strings.HasPrefix(d, name) {
			return true
		}
	}
	return false
}
