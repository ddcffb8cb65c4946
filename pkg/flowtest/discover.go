package flowtest

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// File is a fixture file found for a story, with its flow documents.
type File struct {
	Path     string
	Story    string // the app.yaml
	Fixtures []*Fixture
}

// defaultGlob is <dir of app.yaml>/flows/*.yaml (flow-format.md §1.1).
func defaultGlob(app string) string {
	return filepath.Join(story.QuoteGlob(filepath.Dir(app)), "flows", "*.yaml")
}

// UpstreamGlob is upstream's full default-glob rule for `test flows APP`:
// <app dir>/flows/*.yaml if that directory exists, else ./flows/*.yaml if
// ./flows exists, else <app minus extension>-flows/*.yaml.
func UpstreamGlob(app string) string {
	return localGlob(app, "flows", story.QuoteGlob(app[:len(app)-len(filepath.Ext(app))])+"-flows/*.yaml")
}

// localGlob is <app dir>/name/*.yaml, else ./name/*.yaml, whichever
// directory exists first (dirThere), else fallback.
func localGlob(app, name, fallback string) string {
	for _, dir := range []string{filepath.Join(filepath.Dir(app), name), name} {
		if dirThere(dir) {
			return filepath.Join(story.QuoteGlob(dir), "*.yaml")
		}
	}
	return fallback
}

// dirThere says dir is a directory, looked at through the project root
// above it: a symbolic link on the way leading out of that root counts as
// there whether its target exists or not, so the listing that follows
// refuses it by name (flow-outside-root) and what is reported tells
// nothing of what lies outside the project.
func dirThere(dir string) bool {
	abs := absOf(dir)
	root, _ := story.ProjectRoot(filepath.Dir(abs))
	r := safefile.NewRoot(root)
	defer r.Close()
	if st, err := r.Stat(abs); err == nil {
		return st.IsDir()
	}
	return r.LeadsOut(abs)
}

// DiscoverUnder reads the fixture files of each story matching glob
// (relative to the story directory when rel is true) or defaultGlob,
// keeping only base names run matches, with parse findings. Files are read
// through each story's project root, found as [StoryRoot] finds it from
// root (--root, "" for none) and trees: one leading out is a finding,
// never read.
func DiscoverUnder(root string, trees []string, apps []string, glob string, rel bool, run *regexp.Regexp) ([]*File, []diag.Diagnostic, error) {
	return discover(apps, root, trees, glob, rel, run, nil)
}

// discover is DiscoverUnder; read, when set, is given each fixture file's
// bytes as read.
func discover(apps []string, root string, trees []string, glob string, rel bool, run *regexp.Regexp, read func(path string, data []byte)) ([]*File, []diag.Diagnostic, error) {
	var files []*File
	var ds []diag.Diagnostic
	for _, app := range apps {
		g := cmp.Or(glob, defaultGlob(app))
		if glob != "" && rel && !filepath.IsAbs(g) {
			g = filepath.Join(story.QuoteGlob(filepath.Dir(app)), g)
		}
		if _, err := filepath.Match(g, ""); err != nil && glob != "" { // (the default pattern's own part is valid)
			return nil, nil, fmt.Errorf("--flows %q: %v", glob, err)
		}
		r := safefile.NewRoot(globRoot(StoryRoot(app, root, trees...), g))
		matches, outside, err := story.Glob(r, g)
		if err != nil {
			r.Close()
			return nil, nil, fmt.Errorf("fixture glob %q: %v", g, err)
		}
		for _, o := range outside {
			ds = append(ds, outsideDiag(r, "fixture directory", o, &os.PathError{Op: "read", Path: o, Err: safefile.ErrOutsideRoot}))
		}
		slices.Sort(matches)
		for _, m := range matches {
			if run != nil && !run.MatchString(filepath.Base(m)) {
				continue
			}
			fi, err := r.Stat(absOf(m))
			if errors.Is(err, safefile.ErrOutsideRoot) {
				ds = append(ds, outsideDiag(r, "fixture file", m, err))
				continue
			}
			if err != nil || fi.IsDir() {
				continue
			}
			data, err := readIn(r, m)
			if errors.Is(err, safefile.ErrInGitDir) {
				ds = append(ds, diag.Diagnostic{File: m, Severity: diag.Error, Rule: ruleOutsideRoot.ID, Message: "fixture file " + err.Error()})
				continue
			}
			if err != nil {
				ds = append(ds, diag.Diagnostic{File: m, Line: 1, Col: 1, Severity: diag.Error, Rule: ruleSyntax.ID, Message: err.Error()})
				continue
			}
			if read != nil {
				read(m, data)
			}
			fxs, fds := parse(m, data)
			ds = append(ds, fds...)
			if len(fxs) == 0 {
				continue
			}
			for _, fx := range fxs {
				fx.Story = app
			}
			files = append(files, &File{Path: m, Story: app, Fixtures: fxs})
		}
		r.Close()
	}
	return files, ds, nil
}

// HasFlows reports whether a story directory has a flows/ directory or
// symlink (which [DiscoverUnder] refuses when it leads out of the root).
func HasFlows(app string) bool {
	fi, err := os.Lstat(filepath.Join(filepath.Dir(app), "flows"))
	return err == nil && (fi.IsDir() || fi.Mode()&os.ModeSymlink != 0)
}

func readBounded(p string) ([]byte, error) {
	data, err := safefile.ReadFile(p, maxFixtureBytes)
	return fixtureBytes(data, err)
}

// readIn is readBounded of p through root; a file inside a .git
// directory is safefile.ErrInGitDir, unread.
func readIn(r *safefile.Root, p string) ([]byte, error) {
	abs := absOf(p)
	if r.InGitDir(abs) {
		return nil, fmt.Errorf("%s: %w", p, safefile.ErrInGitDir)
	}
	return fixtureBytes(r.ReadFile(abs, maxFixtureBytes))
}

func fixtureBytes(data []byte, err error) ([]byte, error) {
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("fixture file is more than the %d-byte limit; split it into several files", maxFixtureBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the fixture: %w", err)
	}
	return data, nil
}
