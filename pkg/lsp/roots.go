package lsp

import (
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// setRoots takes the workspace roots from initialize: --root
// ([Options].Root) when given, else initializationOptions.root, else the
// client's workspace folders, else its rootUri or rootPath. The server
// reads, checks and publishes only inside them; with none, it serves no
// document at all (it says so in the log once).
func (s *Server) setRoots(p *protocol.InitializeParams) {
	var dirs []string
	add := func(d string) {
		if d == "" {
			return
		}
		if path, err := uriPath(d); err == nil {
			d = path
		}
		if filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	switch {
	case s.opts.Root != "":
		if abs, err := filepath.Abs(s.opts.Root); err == nil {
			dirs = append(dirs, abs)
		}
	case initRoot(p) != "":
		add(initRoot(p))
	case p != nil && len(p.WorkspaceFolders) > 0:
		for _, f := range p.WorkspaceFolders {
			add(f.URI)
		}
	case p != nil && p.RootURI != nil:
		add(*p.RootURI)
	case p != nil && p.RootPath != nil:
		add(*p.RootPath)
	}
	roots := make([]*safefile.Root, 0, len(dirs))
	for _, d := range dirs {
		roots = append(roots, safefile.NewRoot(d))
	}
	s.mu.Lock()
	s.roots = roots
	s.mu.Unlock()
}

// initRoot is initializationOptions.root, a path or a file:// URI.
func initRoot(p *protocol.InitializeParams) string {
	if p == nil {
		return ""
	}
	if m, ok := p.InitializationOptions.(map[string]any); ok {
		if r, ok := m["root"].(string); ok {
			return r
		}
	}
	return ""
}

// rootOf is the workspace root that holds path (lexically and through
// every symlink on the way), the innermost when several do; nil when none
// does: the server neither reads nor publishes for it.
func (s *Server) rootOf(path string) *safefile.Root {
	s.mu.Lock()
	roots := s.roots
	s.mu.Unlock()
	var best *safefile.Root
	for _, r := range roots {
		if r.Inside(path) && (best == nil || len(r.Dir()) > len(best.Dir())) {
			best = r
		}
	}
	return best
}

// inside says path is inside a workspace root.
func (s *Server) inside(path string) bool { return s.rootOf(path) != nil }

// storyRoot is the project root a story at manifest is loaded under: its
// own (the nearest .git or .kitsoki/ above it) when that lies inside the
// workspace root holding it, else that workspace root.
func (s *Server) storyRoot(manifest string) string {
	ws := s.rootOf(manifest)
	if ws == nil {
		return ""
	}
	if dir, marked := story.ProjectRoot(filepath.Dir(manifest)); marked {
		if _, ok := ws.Rel(dir); ok {
			return dir
		}
	}
	return ws.Dir()
}
