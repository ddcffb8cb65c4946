package watch

import (
	"path/filepath"
	"slices"

	"kitsoki/internal/safefile"
)

// Target is something a change can make stale: a run of it is due when a
// changed path is one of Files or lies under one of Dirs.
type Target struct {
	Files []string
	Dirs  []string
}

// Affected returns the indexes of the targets a batch of changed paths
// touches, in order. Paths compare cleaned; a directory covers every path
// below it.
func Affected(targets []Target, changed []string) []int {
	var out []int
	for i, t := range targets {
		if touches(t, changed) {
			out = append(out, i)
		}
	}
	return out
}

func touches(t Target, changed []string) bool {
	for _, c := range changed {
		c = filepath.Clean(c)
		if slices.ContainsFunc(t.Files, func(f string) bool { return filepath.Clean(f) == c }) ||
			slices.ContainsFunc(t.Dirs, func(d string) bool { return safefile.Within(filepath.Clean(d), c) }) {
			return true
		}
	}
	return false
}
