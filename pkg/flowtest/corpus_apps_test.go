package flowtest

import (
	"io/fs"
	"path/filepath"
	"sort"
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
