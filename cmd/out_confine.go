package cmd

import (
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// checkOutInside refuses, for each flag and path pair, an output path
// inside the working directory's project root that a symlink leads out of
// it, so nothing is written outside the project ("" and - are no file).
func checkOutInside(flagPaths ...string) error {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	return checkOutInsideOf(wd, flagPaths...)
}

// checkOutInsideOf is [checkOutInside] against the project root above
// start, for a default output the repository places itself.
func checkOutInsideOf(start string, flagPaths ...string) error {
	dir, _ := story.ProjectRoot(start)
	r := safefile.NewRoot(dir)
	defer r.Close()
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, p := flagPaths[i], flagPaths[i+1]
		if p == "" || p == "-" {
			continue
		}
		// only a way out is refused here: a missing directory or a file
		// where one is expected is the writer's own error to explain
		if !r.LeadsOut(p) {
			continue
		}
		return usagef("%s %s: the path goes through a symlink leading out of the project root %s; nothing is written outside the root: remove the link, or name a file elsewhere", flag, p, r.Dir())
	}
	return nil
}

// checkOutDirs is checkOutInside, and refuses an output whose directory
// does not exist.
func checkOutDirs(flagPaths ...string) error {
	if err := checkOutInside(flagPaths...); err != nil {
		return err
	}
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, p := flagPaths[i], flagPaths[i+1]
		if p == "" || p == "-" {
			continue
		}
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			return usagef("%s %s: directory %s does not exist; create it first", flag, p, filepath.Dir(p))
		}
	}
	return nil
}
