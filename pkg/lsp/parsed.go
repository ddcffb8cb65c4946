package lsp

import (
	"io/fs"

	"go.yaml.in/yaml/v3"
)

// parsedBuffer is the YAML tree and lines of one open buffer's text, kept
// for the hovers and definitions that follow until the text changes: each
// such request parsed the whole buffer again, seconds for a buffer of tens
// of MiB. One buffer's only, the one asked about last, so the trees of all
// the open buffers are never held at once. A file not held in memory is
// kept the same way, by its path, size and modification time (disk): each
// hover on it read and parsed the file again.
type parsedBuffer struct {
	doc   *document // nil: no buffer's tree kept
	gen   uint64    // doc.gen the tree was parsed from
	disk  diskKey   // set: the tree of a file on disk
	root  *yaml.Node
	lines []string
}

// diskKey names a file's text on disk: a write that changes the file
// changes its size or modification time (nanoseconds on the file systems
// an editor writes to).
type diskKey struct {
	path  string
	size  int64
	mtime int64 // Unix nanoseconds: comparable with ==, as a time.Time is not
}

func keyOf(path string, fi fs.FileInfo) diskKey {
	return diskKey{path: path, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// tree returns the lines and YAML tree (nil: no YAML document) of path's
// buffer, or of the file on disk when no buffer of it is held; ok is false
// when neither can be read. A held buffer is parsed once per text: hold
// and drop give its document a new gen, which the kept tree must match.
func (s *Server) tree(path string) (ls []string, root *yaml.Node, ok bool) {
	s.mu.Lock()
	d := s.docs[path]
	if d == nil || d.unheld {
		s.mu.Unlock()
		return s.diskTree(path)
	}
	if p := s.parsed; p.doc == d && p.gen == d.gen {
		s.mu.Unlock()
		return p.lines, p.root, true
	}
	text, gen := d.text, d.gen
	s.mu.Unlock()
	ls, root = lines(text), s.parse(text)
	s.mu.Lock()
	if s.docs[path] == d && d.gen == gen {
		s.parsed = parsedBuffer{doc: d, gen: gen, root: root, lines: ls}
	}
	s.mu.Unlock()
	return ls, root, true
}

// diskTree is tree for a file not held: the kept tree while the file's
// size and modification time are those it was read at, else the file read
// and parsed (and kept when they did not change during the read).
func (s *Server) diskTree(path string) (ls []string, root *yaml.Node, ok bool) {
	r := s.rootOf(path)
	if r == nil {
		return nil, nil, false
	}
	before, err := r.Stat(path)
	if err != nil {
		return nil, nil, false
	}
	key := keyOf(path, before)
	s.mu.Lock()
	if p := s.parsed; p.doc == nil && p.disk == key {
		s.mu.Unlock()
		return p.lines, p.root, true
	}
	s.mu.Unlock()
	b, ok := s.readInside(path)
	if !ok {
		return nil, nil, false
	}
	ls, root = lines(string(b)), s.parse(string(b))
	if after, err := r.Stat(path); err == nil && keyOf(path, after) == key && int64(len(b)) == key.size {
		s.mu.Lock()
		s.parsed = parsedBuffer{disk: key, root: root, lines: ls}
		s.mu.Unlock()
	}
	return ls, root, true
}

// parse parses text with parseTree, counting the parses (parses, which
// tests read).
func (s *Server) parse(text string) *yaml.Node {
	s.parses.Add(1)
	return parseTree(text)
}
