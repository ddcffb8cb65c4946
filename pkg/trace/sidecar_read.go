package trace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
)

// maxHeldSidecars bounds what one reader keeps of the sidecar files it
// read; past it a file is read again when named again, at most
// maxRereadSidecars bytes of such reads in all.
const maxHeldSidecars = 256 << 20

// maxRereadSidecars bounds what one reader reads again of files it could
// not keep: a trace naming a large blob, past the files kept, on every
// line (a payload member no reader shows) had trace to-cassette read and
// decode it once per line, without end.
const maxRereadSidecars = 1 << 30

// errSidecarLink is wrapped by the error of a sidecar reached through a
// symlink.
var errSidecarLink = errors.New("a symlink")

// sidecars reads the files a trace's references name: only regular files
// inside its own agent-prompts/, reached without a symlink, each at most
// limit bytes and read once.
type sidecars struct {
	dir   string // <trace dir>/agent-prompts
	limit int64
	mu    sync.Mutex
	files map[string]*sidecarFile // by name inside dir
	held  int64
	// heldMax and rereadMax are maxHeldSidecars and maxRereadSidecars;
	// read is what was read of the files not kept, by name, and reread
	// the bytes read again of them.
	heldMax, rereadMax int64
	read               map[string]bool
	reread             int64
	// previews holds each blob's preview (ReadOptions.BlobPreview), encoded.
	previews map[string]preview
}

type preview struct {
	size int64
	enc  []byte
	err  error
}

type sidecarFile struct {
	data []byte
	err  error
	// enc is the value encoded as a payload holds it (made once, for
	// splicing); size is the file's size.
	size   int64
	enc    []byte
	encErr error
	coded  bool
}

func newSidecars(tracePath string, limit int64) *sidecars {
	return &sidecars{dir: filepath.Join(filepath.Dir(tracePath), promptsDir), limit: limit, files: map[string]*sidecarFile{},
		heldMax: maxHeldSidecars, rereadMax: maxRereadSidecars, read: map[string]bool{}}
}

// sidecarName is the name inside agent-prompts/ of a reference; one that
// leaves the folder is refused.
func sidecarName(ref string) (string, error) {
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(ref)))
	if filepath.IsAbs(ref) || strings.HasPrefix(ref, "/") || !strings.HasPrefix(clean, promptsDir+"/") || len(clean) <= len(promptsDir)+1 {
		return "", fmt.Errorf("sidecar reference %q is not under %s/", ref, promptsDir)
	}
	return clean[len(promptsDir)+1:], nil
}

// open opens the trace's agent-prompts/ folder, refusing one that is a
// symlink (or was swapped for one between the look and the open), and
// looks at name in it (look); the caller closes the folder.
func (s *sidecars) open(name string) (*os.Root, int64, error) {
	fi, err := os.Lstat(s.dir)
	if err != nil {
		return nil, 0, reason{err}
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, 0, fmt.Errorf("the trace's %s/ folder is %w or not a folder: kitsoki reads sidecars only from the trace's own folder", promptsDir, errSidecarLink)
	}
	r, err := safefile.OpenDirRoot(s.dir)
	if err != nil {
		return nil, 0, reason{err}
	}
	if st, err := r.Stat("."); err != nil || !os.SameFile(fi, st) {
		r.Close()
		return nil, 0, fmt.Errorf("the trace's %s/ folder changed while it was opened", promptsDir)
	}
	size, err := look(r, name)
	if err != nil {
		r.Close()
		return nil, 0, err
	}
	return r, size, nil
}

// look checks, without reading it, that name is a regular file reached
// through no symlink inside r, and returns its size.
func look(r *os.Root, name string) (int64, error) {
	parts := strings.Split(name, "/")
	for i := range parts {
		fi, err := r.Lstat(strings.Join(parts[:i+1], "/"))
		if err != nil {
			return 0, reason{err}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return 0, fmt.Errorf("it is %w: kitsoki reads only regular files inside the trace's %s/ folder", errSidecarLink, promptsDir)
		}
		if i == len(parts)-1 {
			if !fi.Mode().IsRegular() {
				return 0, fmt.Errorf("it is not a regular file: kitsoki reads only regular files inside the trace's %s/ folder", promptsDir)
			}
			return fi.Size(), nil
		}
	}
	return 0, nil
}

// size is the size of the sidecar ref names, checked as read checks it.
func (s *sidecars) size(ref string) (int64, error) {
	name, err := sidecarName(ref)
	if err != nil {
		return 0, err
	}
	return s.sizeOf(name)
}

// file is the sidecar ref names, read (once) under the rules above.
func (s *sidecars) file(ref string) (*sidecarFile, error) {
	name, err := sidecarName(ref)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.files[name]; f != nil {
		return f, f.err
	}
	f := &sidecarFile{}
	again := s.read[name]
	if again {
		// Read before but not kept: what it holds counts against rereadMax
		// before it is read (its size, as look sees it).
		if size, err := s.sizeOf(name); err == nil {
			if s.reread+size > s.rereadMax {
				return nil, fmt.Errorf("it was read before and not kept (this command keeps %d MiB of the trace's sidecar files), and reading it again would pass the %d MiB read again in all: the trace names its large files on too many lines; read a trace that names each large value fewer times", s.heldMax>>20, s.rereadMax>>20)
			}
			s.reread += size
		}
	}
	f.data, f.err = s.readName(name)
	if f.err == nil && s.held+int64(len(f.data)) <= s.heldMax {
		s.held += int64(len(f.data))
		s.files[name] = f
	} else if f.err == nil {
		s.read[name] = true
	}
	return f, f.err
}

// sizeOf is the size of the file name inside the folder (look).
func (s *sidecars) sizeOf(name string) (int64, error) {
	r, size, err := s.open(name)
	if err == nil {
		r.Close()
	}
	return size, err
}

func (s *sidecars) readName(name string) ([]byte, error) {
	r, _, err := s.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := safefile.ReadRootFile(r, name, s.limit)
	if err != nil {
		return nil, reason{err}
	}
	return b, nil
}

// blob is the blob ref names as it goes back into a payload (a preview
// of preview runes when preview > 0) and the blob file's size.
func (s *sidecars) blob(ref string, preview int) (size int64, enc []byte, err error) {
	if preview > 0 {
		size, enc, err = s.preview(ref, preview)
	} else {
		size, enc, err = s.encoded(ref)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("blob %s: %w", ref, err)
	}
	return size, enc, nil
}

// encoded is the blob ref names as a payload holds it (encoded once, then
// only the encoding is kept) and the blob's size.
func (s *sidecars) encoded(ref string) (int64, []byte, error) {
	f, err := s.file(ref)
	if err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !f.coded {
		if filepath.Ext(ref) == ".txt" {
			f.enc, f.encErr = jsonvalue.MarshalNoHTML(string(f.data))
		} else if v, err := decodeNumbers(f.data); err != nil {
			f.encErr = err
		} else {
			f.enc, f.encErr = jsonvalue.MarshalNoHTML(v)
		}
		f.coded, f.size = true, int64(len(f.data))
		if f.encErr == nil {
			f.data = nil // the encoding stands for it from now on
		}
	}
	return f.size, f.enc, f.encErr
}

// preview is the blob ref names as a JSON string of its first n runes,
// read through a bounded reader, and the file's size.
func (s *sidecars) preview(ref string, n int) (int64, []byte, error) {
	name, err := sidecarName(ref)
	if err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.previews[name]; ok {
		return p.size, p.enc, p.err
	}
	var p preview
	p.size, p.enc, p.err = s.readPreview(name, n)
	if s.previews == nil {
		s.previews = map[string]preview{}
	}
	s.previews[name] = p
	return p.size, p.enc, p.err
}

func (s *sidecars) readPreview(name string, n int) (int64, []byte, error) {
	r, size, err := s.open(name)
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return 0, nil, reason{err}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0, nil, fmt.Errorf("it is not a regular file: kitsoki reads only regular files inside the trace's %s/ folder", promptsDir)
	}
	// n+1 runes of at most 4 bytes, and one more byte: enough for a clip
	// at n to cut (a "\r\n" counts once there).
	head, err := io.ReadAll(io.LimitReader(f, int64(n+1)*4+1))
	if err != nil {
		return 0, nil, reason{err}
	}
	for len(head) > 0 && !utf8.Valid(head) {
		head = head[:len(head)-1] // a rune cut at the end
	}
	enc, err := jsonvalue.MarshalNoHTML(string(head))
	return size, enc, err
}

// ReadSidecar reads the sidecar or blob reference ref of the trace at
// tracePath under the sidecars rules; the error names the reference.
func ReadSidecar(tracePath, ref string, limit int64) ([]byte, error) {
	f, err := newSidecars(tracePath, limit).file(ref)
	if err != nil {
		return nil, fmt.Errorf("sidecar %s: %w", ref, err)
	}
	return f.data, nil
}

// reason is a file error worded without Go's absolute path (what
// safefile.Reason says), still matching what it wraps (fs.ErrNotExist).
type reason struct{ err error }

func (r reason) Error() string { return safefile.Reason(r.err) }
func (r reason) Unwrap() error { return r.err }
