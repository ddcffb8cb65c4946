package modroot

import (
	"os"
	"path/filepath"
)

// Dir is the nearest folder from the working folder up that holds a go.mod,
// and the working folder; ok is false when none does or the working folder
// cannot be read.
func Dir() (root, wd string, ok bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", false
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, wd, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", wd, false
		}
		dir = up
	}
}
