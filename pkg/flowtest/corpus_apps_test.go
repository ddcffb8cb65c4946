package flowtest

import (
	"io/fs"
	"path/filepath"
	"sort"
	"testing"
)

// corpusApps lists every app.yaml below dir (what `kitsoki test DIR/...`
// expands to; pkg/validate's Expand cannot be imported here: validate
// imports this package for the fixture rules).
func corpusApps(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "app.yaml" {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// corpusFiles discovers the fixtures of every corpus story, skipping the
// test or benchmark where there is no corpus.
func corpusFiles(tb testing.TB) []*File {
	tb.Helper()
	apps, err := corpusApps(corpusDir)
	if err != nil {
		tb.Skip("no corpus: ", err)
	}
	files, _, err := DiscoverUnder("", nil, apps, "", false, nil)
	if err != nil || len(files) == 0 {
		tb.Skip("no corpus fixtures")
	}
	return files
}
