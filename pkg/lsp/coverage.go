package lsp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/coverage"
)

// Coverage hints: the parts a profile beside a story (coverage.EditorProfile)
// says no fixture reached, shown only on files unchanged since the profile
// (their lines may have moved otherwise). The profile is re-read at every
// check and on workspace/didChangeWatchedFiles.

// coverRule is the code of a coverage hint.
const coverRule = "coverage"

// coverCache holds the last read of each profile.
type coverCache struct {
	mu       sync.Mutex
	profiles map[string]*coverRead // by profile path, at most maxProfiles
	tick     uint64                // counts reads: coverRead.used orders them
}

// maxProfiles is how many profiles' reads the cache keeps (those used
// last), each up to coverage.MaxJSON.
const maxProfiles = 16

type coverRead struct {
	mod       time.Time
	size      int64
	unreached map[string][]coverage.Item // by absolute story file path
	logged    bool                       // a read error was logged once
	err       error
	used      uint64 // coverCache.tick when last read
}

// read returns the profile at path as it is now on disk.
func (c *coverCache) read(path, root string) (*coverRead, time.Time) {
	// Through the directory holding .kitsoki/: the repository's profile
	// (or its .kitsoki/) may be a symlink leading out, which is refused
	// unread and unstatted, so neither the log line below nor whether one
	// is written tells what it points at, or whether that exists.
	holder := safefile.NewRoot(root)
	defer holder.Close()
	st, err := holder.Stat(path)
	out := errors.Is(err, safefile.ErrOutsideRoot)
	if err != nil && !out {
		return nil, time.Time{}
	}
	var mod time.Time
	size := int64(-1)
	if !out {
		mod, size = st.ModTime(), st.Size()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.profiles == nil {
		c.profiles = map[string]*coverRead{}
	}
	c.tick++
	if r := c.profiles[path]; r != nil && r.mod.Equal(mod) && r.size == size {
		r.used = c.tick
		return r, mod
	}
	r := &coverRead{mod: mod, size: size}
	var data []byte
	if !out {
		data, err = holder.ReadFile(path, coverage.MaxJSON)
	}
	if errors.Is(err, safefile.ErrOutsideRoot) {
		r.err = fmt.Errorf("%s: it goes through a symlink leading out of %s, and nothing outside is read", path, root)
	} else if err != nil {
		r.err = fmt.Errorf("%s: %s", path, safefile.Reason(err))
	} else if p, perr := coverage.ParseJSON(path, data); perr != nil {
		r.err = perr
	} else {
		r.unreached = p.UnreachedByFile(root)
	}
	r.used = c.tick
	delete(c.profiles, path)
	if len(c.profiles) >= maxProfiles {
		delete(c.profiles, slices.MinFunc(slices.Collect(maps.Keys(c.profiles)), func(a, b string) int {
			return cmp.Compare(c.profiles[a].used, c.profiles[b].used)
		}))
	}
	c.profiles[path] = r
	return r, r.mod
}

// firstLog reports whether r's error is yet to be logged, marking it.
func (c *coverCache) firstLog(r *coverRead) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	first := !r.logged
	r.logged = true
	return first
}

// forget drops the cached read of a profile (the client says it changed).
func (c *coverCache) forget(path string) {
	c.mu.Lock()
	delete(c.profiles, path)
	c.mu.Unlock()
}

// coverHints are the hint diagnostics of file, whose current text is
// text, from the profile beside it.
func (s *Server) coverHints(file, text string, ls []string) []protocol.Diagnostic {
	prof, root, ok := coverage.FindEditorProfile(filepath.Dir(file))
	if !ok || !s.profileInWorkspace(file, root) {
		return nil
	}
	r, mod := s.cover.read(prof, root)
	if r == nil {
		return nil
	}
	if r.err != nil {
		if s.cover.firstLog(r) {
			s.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: protocol.MessageTypeWarning,
				Message: "kitsoki: coverage hints off: " + r.err.Error() + " (rewrite it with kitsoki test --coverprofile " + coverage.EditorProfile + ")"})
		}
		return nil
	}
	items := r.unreached[file]
	if len(items) == 0 || !s.unchangedSince(file, text, mod) {
		return nil
	}
	items = items[:min(len(items), maxPublished)]
	out := make([]protocol.Diagnostic, 0, len(items))
	for _, it := range items {
		out = append(out, protocol.Diagnostic{
			Range: tokenRangeIn(ls, it.Line, it.Col), Severity: new(protocol.DiagnosticSeverityHint),
			Code: &protocol.IntegerOrString{Value: coverRule}, Source: new("kitsoki"),
			Message: fmt.Sprintf("never reached by a fixture (%s %s)", it.Kind, it.Label),
		})
	}
	return out
}

// unchangedSince reports whether file, whose editor text is text, is as
// it was when the profile was written at mod: not saved since, and the
// buffer equal to the file.
func (s *Server) unchangedSince(file, text string, mod time.Time) bool {
	r := s.rootOf(file)
	if r == nil {
		return false
	}
	st, err := r.Stat(file)
	if err != nil || st.ModTime().After(mod) {
		return false
	}
	disk, err := r.ReadFile(file, maxFile)
	return err == nil && bytes.Equal(disk, []byte(text))
}

// watchProfiles asks a client that can watch files to report changes of
// every coverage profile (workspace/didChangeWatchedFiles). It runs on its
// own goroutine: the client answers on the connection being served.
func (s *Server) watchProfiles() {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return
	}
	opts := protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/" + coverage.EditorProfile}}}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "kitsoki-coverage-profiles", Method: string(protocol.MethodWorkspaceDidChangeWatchedFiles), RegisterOptions: opts}}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var res any
	_ = c.Call(ctx, string(protocol.ServerClientRegisterCapability), params, &res)
}

// didChangeWatchedFiles re-checks every known story below a coverage
// profile that changed, so its hints follow the profile.
// Each profile counts once, however often a message names it.
func (s *Server) didChangeWatchedFiles(_ *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
	roots := map[string]bool{}
	for _, ch := range p.Changes {
		path, err := uriPath(ch.URI)
		if err != nil || !strings.HasSuffix(filepath.ToSlash(path), "/"+coverage.EditorProfile) || roots[filepath.Dir(filepath.Dir(path))] {
			continue
		}
		s.cover.forget(path)
		roots[filepath.Dir(filepath.Dir(path))] = true
	}
	if len(roots) == 0 {
		return nil
	}
	for _, m := range s.ws.manifests() {
		for root := range roots {
			if rel, err := filepath.Rel(root, m); err == nil && !strings.HasPrefix(rel, "..") {
				s.schedule(m, 0)
				break
			}
		}
	}
	return nil
}

// profileInWorkspace says the directory holding the profile's .kitsoki/
// lies inside the workspace root holding file: a profile found above the
// workspace (a parent's, a shared /tmp's, the home directory's) is not
// the workspace's, and is not read.
func (s *Server) profileInWorkspace(file, root string) bool {
	ws := s.rootOf(file)
	if ws == nil {
		return false
	}
	_, in := ws.Rel(root)
	return in
}
