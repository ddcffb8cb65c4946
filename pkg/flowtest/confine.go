package flowtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// namedRoot is the directory the files a fixture names (host_cassette,
// recording, starlark_http_cassette, starlark_inspect_cassette) must lie
// in: the story's project root when the fixture is inside it, else the
// fixture's own (the nearest .git or .kitsoki/ above it, else its
// directory).
func namedRoot(st *story.Story, fixtureFile string) string {
	abs := absOf(fixtureFile)
	if st != nil && st.ProjectRoot != "" && safefile.Inside(st.ProjectRoot, abs) {
		return st.ProjectRoot
	}
	dir, _ := story.ProjectRoot(filepath.Dir(abs))
	return dir
}

// resolveNamed resolves p, a path the fixture at fixtureFile wrote under
// key, against the fixture's directory, refusing it when it leaves root
// (an absolute path elsewhere, a "../" climbing out, a symlink leading
// out): the error names the path as written and the root, never what
// lies outside.
func resolveNamed(root, fixtureFile, key, p string) (string, error) {
	r := safefile.NewRoot(root)
	defer r.Close()
	full, err := r.Resolve(filepath.Dir(absOf(fixtureFile)), p)
	if err == nil {
		_, err = r.Stat(full)
	}
	if !errors.Is(err, safefile.ErrOutsideRoot) {
		return full, nil // missing or unreadable: the reader says so
	}
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Op == "read" {
		return "", fmt.Errorf("%s %q goes through a symlink leading out of the project root %s (or an absolute one); nothing outside the root is read: put the file itself there, or a relative link that stays inside, or pass --root DIR naming a directory that holds both", key, p, r.Dir())
	}
	return "", fmt.Errorf("%s %q leaves the project root %s (the nearest directory above the story holding .git or .kitsoki/); nothing outside the root is read: move the file inside the project, or pass --root DIR naming a directory that holds both", key, p, r.Dir())
}

func absOf(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
