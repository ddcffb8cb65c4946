package lsp

import "go.yaml.in/yaml/v3"

// parsedBuffer is the YAML tree and lines of one open buffer's text, kept
// for the hovers and definitions that follow until the text changes: each
// such request parsed the whole buffer again, seconds for a buffer of tens
// of MiB. One buffer's only, the one asked about last, so the trees of all
// the open buffers are never held at once.
type parsedBuffer struct {
	doc   *document // nil: nothing kept
	gen   uint64    // doc.gen the tree was parsed from
	root  *yaml.Node
	lines []string
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
		b, ok := s.readInside(path)
		if !ok {
			return nil, nil, false
		}
		return lines(string(b)), s.parse(string(b)), true
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

// parse parses text with parseTree, counting the parses (parses, which
// tests read).
func (s *Server) parse(text string) *yaml.Node {
	s.parses.Add(1)
	return parseTree(text)
}
