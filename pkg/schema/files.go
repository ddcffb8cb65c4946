package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"kitsoki/internal/safefile"
)

// rootFiles reads the files under one schemas directory for one or more
// compiles: the directory is opened once (an os.Root, and where the system
// allows a plain descriptor for names directly inside it, files_linux.go)
// and each file is read once, its bytes (or why it could not be read)
// kept for the files' lifetime. It is safe for concurrent use.
type rootFiles struct {
	dir string // absolute schemas directory

	mu   sync.Mutex
	root *os.Root
	dirf dirFD // files_linux.go; the zero value has none
	got  map[string]readResult
}

type readResult struct {
	data   []byte
	reason string
}

func newRootFiles(dir string) *rootFiles {
	return &rootFiles{dir: dir, dirf: noDirFD}
}

func (f *rootFiles) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root != nil {
		_ = f.root.Close()
		f.root = nil
	}
	f.dirf.close()
	f.dirf = noDirFD
	f.got = nil
}

// readRooted returns the file's bytes, or a reason it could not be read:
// each root-relative slash path is read once.
func (f *rootFiles) readRooted(rel string) ([]byte, string) {
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
	if data, ok := f.dirf.readPlain(f.dir, rel, safefile.Story); ok {
		return data, ""
	}
	if f.root == nil {
		r, err := os.OpenRoot(f.dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Sprintf("could not be read: the story has no schemas directory (%s); create it and put the schema there", f.dir)
			}
			return nil, fmt.Sprintf("could not be read: the schemas directory %s cannot be opened: %v", f.dir, unwrapPathErr(err))
		}
		f.root = r
	}
	name := filepath.FromSlash(rel)
	fi, err := f.root.Stat(name)
	if err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Sprintf("could not be read: it is not a regular file (%s)", fi.Mode().Type())
	}
	var data []byte
	if err == nil {
		data, err = safefile.ReadRootFile(f.root, name, safefile.Story)
	}
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, reasonMissing
		case isEscapeErr(err):
			return nil, reasonEscapes
		}
		return nil, "could not be read: " + unwrapPathErr(err).Error()
	}
	return data, ""
}
