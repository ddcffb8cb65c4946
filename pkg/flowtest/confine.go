package flowtest

import (
	"errors"
	"fmt"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// namedRoot is the directory the files a fixture names must lie in: the
// story's project root when the fixture is inside it, else the fixture's own.
func namedRoot(st *story.Story, fixtureFile string) string {
	abs := absOf(fixtureFile)
	if st != nil && st.ProjectRoot != "" && safefile.Inside(st.ProjectRoot, abs) {
		return st.ProjectRoot
	}
	dir, _ := story.ProjectRoot(filepath.Dir(abs))
	return dir
}

// resolveNamed resolves p, written under key, against the fixture's
// directory, refusing it when it leaves root or lies inside a .git
// directory; the error never names what lies outside.
func resolveNamed(root, fixtureFile, key, p string) (string, error) {
	r := safefile.NewRoot(root)
	defer r.Close()
	full, err := r.Resolve(filepath.Dir(absOf(fixtureFile)), p)
	if err == nil {
		_, err = r.Stat(full)
	}
	if !errors.Is(err, safefile.ErrOutsideRoot) {
		if r.InGitDir(full) {
			// a checkout's .git/config may hold the CI job's token: an
			// expect_files content_matches on it was an oracle, one
			// character a fixture
			return "", fmt.Errorf("%s %q is inside a .git directory; nothing there is read: name a file of the project", key, p)
		}
		return full, nil // missing or unreadable: the reader says so
	}
	return "", errors.New(story.OutsideRootMessage(r, key, p, err))
}

func absOf(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// StoryRoot is the project root of the story at app as the story loader
// finds it: root when set, else the nearest .git or .kitsoki/ above it,
// else the widest of trees holding it, else its directory.
func StoryRoot(app, root string, trees ...string) string {
	if root != "" {
		return absOf(root)
	}
	dir, marked := story.ProjectRoot(filepath.Dir(absOf(app)))
	if marked {
		return dir
	}
	best := dir
	for _, t := range trees {
		abs := absOf(t)
		if _, ok := safefile.NewRoot(abs).Rel(dir); ok && len(abs) < len(best) {
			best = abs
		}
	}
	return best
}

// globRoot is the root a glob g is listed through: root when g's literal
// directory lies inside it, else that directory's own project root.
func globRoot(root, g string) string {
	lit := absOf(g)
	for story.HasGlobMeta(lit) {
		lit = filepath.Dir(lit)
	}
	if _, ok := safefile.NewRoot(root).Rel(lit); ok && root != "" {
		return root
	}
	dir, _ := story.ProjectRoot(filepath.Dir(lit))
	return dir
}

// outsideDiag is the finding for a fixture file or directory (what) that
// leads out of root.
func outsideDiag(r *safefile.Root, what, p string, err error) diag.Diagnostic {
	return diag.Diagnostic{File: p, Severity: diag.Error, Rule: ruleOutsideRoot.ID,
		Message: story.OutsideRootMessage(r, what, p, err)}
}

// confinedErr words err, from reading p through r, as a refusal when it is
// ErrOutsideRoot (what names the file), else as the reader's error.
func confinedErr(r *safefile.Root, what, p string, err error) error {
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return errors.New(story.OutsideRootMessage(r, what, p, err))
	}
	return err
}
