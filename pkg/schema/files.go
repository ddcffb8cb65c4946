package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/safefile"
)

// rootFiles reads the schema files of one story for one or more compiles,
// through an os.Root on schemas/ for the files under it and on the story
// directory for the others (an absolute symlink os.Root refuses is read
// through a safefile.Root when it stays inside). Each root is opened once
// and each file read once. It is safe for concurrent use.
type rootFiles struct {
	storyDir string // absolute

	mu      sync.Mutex
	story   *os.Root
	schemas *os.Root
	got     map[string]readResult
	values  int64 // JSON values the compiles through these files decoded
	// resolved, when set (tests), runs between resolving an absolute
	// schemas/ link and opening where it leads.
	resolved func()
}

// charge adds n to the JSON values decoded through f and returns the sum.
func (f *rootFiles) charge(n int64) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.values += n
	return f.values
}

type readResult struct {
	data   []byte
	reason string
}

func newRootFiles(storyDir string) *rootFiles {
	return &rootFiles{storyDir: storyDir}
}

func (f *rootFiles) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range []*os.Root{f.story, f.schemas} {
		if r != nil {
			_ = r.Close()
		}
	}
	f.story, f.schemas, f.got = nil, nil, nil
}

const (
	reasonMissing        = "does not exist"
	reasonEscapesSchemas = "could not be read: it is a symlink leading outside the schemas directory; copy the schema into schemas/ instead"
	reasonEscapesStory   = "could not be read: it is a symlink leading outside the story directory; copy the schema into the story instead"
)

// read returns the bytes of the story-relative slash path rel, or a reason
// it could not be read: each path is read once.
func (f *rootFiles) read(rel string) ([]byte, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.got[rel]; ok {
		return r.data, r.reason
	}
	data, reason := f.readLocked(rel)
	if f.got == nil {
		f.got = map[string]readResult{}
	}
	f.got[rel] = readResult{data, reason}
	return data, reason
}

func (f *rootFiles) readLocked(rel string) ([]byte, string) {
	root, name, escapes, reason := f.rootFor(rel)
	if reason != "" {
		return nil, reason
	}
	stat := root.Stat
	read := func(name string) ([]byte, error) { return safefile.ReadRootFile(root, name, safefile.Story) }
	fi, err := stat(name)
	if safefile.IsEscape(err) { // an absolute link inside the directory is followed, as upstream does
		dir := root.Name()
		sr := safefile.NewRoot(dir)
		defer sr.Close()
		stat = func(name string) (fs.FileInfo, error) { return sr.Stat(filepath.Join(dir, name)) }
		read = func(name string) ([]byte, error) { return sr.ReadFile(filepath.Join(dir, name), safefile.Story) }
		fi, err = stat(name)
	}
	if err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Sprintf("could not be read: it is not a regular file (%s)", fi.Mode().Type())
	}
	var data []byte
	if err == nil {
		data, err = read(name)
	}
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, reasonMissing
		case safefile.IsEscape(err), errors.Is(err, safefile.ErrOutsideRoot):
			return nil, escapes
		}
		return nil, "could not be read: " + safefile.ErrText(err)
	}
	return data, ""
}

// rootFor opens (once) the root a story-relative path is read through and
// names the path inside it: schemas/ for the files under it, the story
// directory for the others.
func (f *rootFiles) rootFor(rel string) (root *os.Root, name, escapes, reason string) {
	if f.story == nil {
		r, err := safefile.OpenDirRoot(f.storyDir)
		if err != nil {
			return nil, "", "", fmt.Sprintf("could not be read: the story directory %s cannot be opened: %v", f.storyDir, safefile.ErrText(err))
		}
		f.story = r
	}
	if sub, ok := strings.CutPrefix(rel, "schemas/"); ok {
		if f.schemas == nil {
			r, reason := f.openSchemas()
			if reason != "" {
				return nil, "", "", reason
			}
			f.schemas = r
		}
		return f.schemas, filepath.FromSlash(sub), reasonEscapesSchemas, ""
	}
	return f.story, filepath.FromSlash(rel), reasonEscapesStory, ""
}

// openSchemas opens schemas/ through the story directory's root, so that a
// schemas directory that is a symlink leading out of the story directory
// is refused unread (os.OpenRoot of its path followed it anywhere); an
// absolute link that stays inside is followed, as for a file.
func (f *rootFiles) openSchemas() (*os.Root, string) {
	dir := filepath.Join(f.storyDir, "schemas")
	r, err := safefile.OpenSubRoot(f.story, "schemas")
	if safefile.IsEscape(err) {
		linkedOut := fmt.Sprintf("could not be read: the schemas directory %s is a symlink leading outside the story directory; nothing outside is read: make schemas/ a directory of the story", dir)
		real, rerr := filepath.EvalSymlinks(dir)
		story, serr := filepath.EvalSymlinks(f.storyDir)
		rel, in := within(story, real)
		if rerr != nil || serr != nil || !in {
			return nil, linkedOut
		}
		if f.resolved != nil {
			f.resolved()
		}
		// opened through the story's root by the name the link resolved
		// to, never by path: a directory on the way swapped for a link out
		// since is refused as the link out it is
		r, err = safefile.OpenSubRoot(f.story, filepath.FromSlash(rel))
		if safefile.IsEscape(err) {
			return nil, linkedOut
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Sprintf("could not be read: the story has no schemas directory (%s); create it and put the schema there", dir)
		}
		return nil, fmt.Sprintf("could not be read: the schemas directory %s cannot be opened: %v", dir, safefile.ErrText(err))
	}
	return r, ""
}
