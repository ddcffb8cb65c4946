package lsp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/safefile"
)

// Options configure a Server.
type Options struct {
	// Debounce is how long after the last change a story is re-checked
	// (default 150ms; 0 checks at once).
	Debounce time.Duration
	// Version is reported to the client as the server's version.
	Version string
	// Root, when set (kitsoki lsp --root), is the one workspace root,
	// whatever the client says; else the client's initializationOptions
	// root, workspace folders or rootUri (roots.go).
	Root string
	// MaxOpenBytes caps the open buffers' bytes together (0 =
	// defaultMaxOpenBytes): a buffer that does not fit is not held, and the
	// file is checked as saved on disk (held.go).
	MaxOpenBytes int64
	// Stderr receives the stack of a panic caught in a request or a
	// check (panic_guard.go); nil discards it. kitsoki lsp wires its
	// stderr (stdout is the protocol).
	Stderr io.Writer
}

// DefaultDebounce is the re-check delay after an edit.
const DefaultDebounce = 150 * time.Millisecond

// Server is one language server session.
type Server struct {
	opts  Options
	proto protocol.Handler

	checkMu sync.Mutex // one check at a time (recheck)

	mu sync.Mutex
	// conn is the connection served, set by handle as it takes each
	// message (conn.go): every notification goes to it.
	conn *jsonrpc2.Conn
	docs map[string]*document // by absolute path, at most maxDocs
	// toldFull says the client was told that maxDocs files are open.
	toldFull bool
	held     int64 // bytes of the docs' texts (held.go)
	timers   map[string]*time.Timer
	// dirty are the stories waiting for a check; draining says a goroutine
	// checks them (schedule); stopped says the session ended.
	dirty    map[string]bool
	draining bool
	stopped  bool
	// shut says the client sent shutdown: only exit is served after it.
	shut bool
	// onCheck, set only by tests, runs before each story check.
	onCheck func(manifest string)
	ws      *workspace
	// watch is set when the client can watch files for us (coverage.go).
	watch bool
	cover coverCache
	// parsed is the tree of the buffer last asked about (parsed.go);
	// parses counts the YAML parses of requests, for tests.
	parsed parsedBuffer
	parses atomic.Int64
	// roots are the workspace roots (set at initialize): no document
	// outside them is read, checked or published for.
	roots []*safefile.Root
	// beforeRead, set only by tests, runs between choosing the root a
	// file is read through and the read, to swap the file there.
	beforeRead func(path string)
	// docsCap, editWorkCap, costFloor and itemsCap are maxDocs,
	// maxEditWork, jsoncost.Floor (frame.go) and maxItems (features.go),
	// which tests lower to reach them at a small size.
	docsCap     int
	editWorkCap int64
	costFloor   int64
	itemsCap    int
}

// document is an open editor buffer.
type document struct {
	text    string
	version int32
	// over says text was cut at maxFile+1 bytes: the buffer is over the
	// story YAML cap (the check says so, as for the file on disk). Ranged
	// edits cannot apply to a cut text: they are dropped until a whole-text
	// change or a reopen brings the buffer back.
	over bool
	// unheld says the text did not fit in what is left of MaxOpenBytes:
	// text is empty, the file on disk stands for the buffer, and ranged
	// edits are dropped as for over (held.go).
	unheld bool
	// why says why a buffer is unheld when it is not for lack of room
	// (one change's ranged edits copied too much: didChange).
	why string
	// gen counts the texts the document held (hold, drop): a tree parsed
	// from an older one is not used (parsedBuffer).
	gen uint64
}

// maxDocs bounds the open documents the server keeps: one opened past it
// is checked as saved on disk (an extension opening every file of a huge
// repository would otherwise make every check copy a map of them all).
const maxDocs = 10_000

// New builds a server. Call Serve to run it.
func New(opts Options) *Server {
	s := &Server{opts: opts, docs: map[string]*document{}, timers: map[string]*time.Timer{}, dirty: map[string]bool{},
		docsCap: maxDocs, editWorkCap: maxEditWork, costFloor: jsoncost.Floor, itemsCap: maxItems}
	s.ws = newWorkspace()
	s.proto = protocol.Handler{
		Initialize:                 s.initialize,
		Initialized:                s.initialized,
		Shutdown:                   s.shutdown,
		Exit:                       func(*glsp.Context) error { return nil },
		SetTrace:                   func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:        s.didOpen,
		TextDocumentDidChange:      s.didChange,
		TextDocumentDidSave:        s.didSave,
		TextDocumentDidClose:       s.didClose,
		TextDocumentDefinition:     s.definition,
		TextDocumentHover:          s.hover,
		TextDocumentCompletion:     s.completion,
		TextDocumentDocumentSymbol: s.documentSymbol,
		TextDocumentCodeAction:     s.codeAction,
		// coverage profiles (coverage.go)
		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
	}
	return s
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.mu.Lock()
		s.watch = *w.DidChangeWatchedFiles.DynamicRegistration
		s.mu.Unlock()
	}
	s.setRoots(p)
	caps := s.proto.CreateServerCapabilities()
	caps.TextDocumentSync = protocol.TextDocumentSyncOptions{
		OpenClose: new(true),
		Change:    new(protocol.TextDocumentSyncKindFull),
		Save:      &protocol.SaveOptions{IncludeText: new(false)},
	}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{".", " ", ":", "/"}}
	caps.CodeActionProvider = true
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "kitsoki", Version: new(s.opts.Version)},
	}, nil
}

// shutdown ends the checking: after it the client may only send exit
// (conn.go refuses the rest).
func (s *Server) shutdown(*glsp.Context) error {
	s.mu.Lock()
	s.shut = true
	s.mu.Unlock()
	s.stopTimers()
	return nil
}

// initialized registers the coverage profile watch with a client that
// can watch files.
func (s *Server) initialized(*glsp.Context, *protocol.InitializedParams) error {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if watch {
		go func() {
			defer s.survive("the coverage profile watch", "its registration")
			s.watchProfiles()
		}()
	}
	return nil
}

// workspacePath is the file uri names, and whether it lies inside the
// workspace roots: a file outside is never read, checked or published.
func (s *Server) workspacePath(uri protocol.DocumentUri) (string, bool, error) {
	path, err := uriPath(uri)
	if err != nil {
		return "", false, err
	}
	return path, s.inside(path), nil
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	path, ok, err := s.workspacePath(p.TextDocument.URI)
	if !ok {
		return err
	}
	full, tell, fits := s.open(path, p.TextDocument)
	switch {
	case full && tell:
		s.notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
			Message: fmt.Sprintf("kitsoki lsp: %s and the files opened after it are checked as saved on disk, not as edited: %d files are open, the most kitsoki lsp keeps; close some", filepath.Base(path), s.docsCap)})
	case !full && !fits:
		s.tellUnheld(path)
	}
	s.schedule(path, 0)
	return nil
}

// open keeps the document opened at path unless maxDocs are open (full;
// tell: the client was not told yet), and says whether its text fits
// (hold). s.mu is released by a defer: a panic here (a kitsoki bug,
// recovered by handle) leaves the server usable.
func (s *Server) open(path string, item protocol.TextDocumentItem) (full, tell, fits bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs[path] == nil && len(s.docs) >= s.docsCap {
		tell = !s.toldFull
		s.toldFull = true
		return true, tell, false
	}
	d := s.docs[path]
	if d == nil {
		d = &document{}
		s.docs[path] = d
	}
	d.version = item.Version
	return false, false, s.hold(d, item.Text)
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, ok, err := s.workspacePath(p.TextDocument.URI)
	if !ok {
		return err
	}
	kept, wasHeld, fits := s.change(path, p)
	if !kept { // not open (or past maxDocs): nothing changed on disk
		return nil
	}
	if wasHeld && !fits {
		s.tellUnheld(path)
	}
	s.schedule(path, s.opts.Debounce)
	return nil
}

// change applies p's changes to the open document at path (kept: there is
// one), saying whether its text was held before and fits after. s.mu is
// released by a defer: the edits are the client's ranges, and a panic
// applying them (a kitsoki bug, recovered by handle) must not leave the
// lock held.
func (s *Server) change(path string, p *protocol.DidChangeTextDocumentParams) (kept, wasHeld, fits bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return false, false, false
	}
	wasHeld, fits = !d.unheld, true
	var work int64 // bytes the ranged edits copy (maxEditWork)
	for i, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			fits = s.hold(d, c.Text)
		case protocol.TextDocumentContentChangeEvent:
			if d.over || d.unheld {
				continue
			}
			if work += int64(len(d.text) + len(c.Text)); work > s.editWorkCap {
				s.drop(d, i+1)
				fits = false
				continue
			}
			fits = s.hold(d, applyEdit(d.text, c))
		}
	}
	d.version = p.TextDocument.Version
	return true, wasHeld, fits
}

func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	path, ok, err := s.workspacePath(p.TextDocument.URI)
	if !ok {
		return err
	}
	s.schedule(path, 0)
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, ok, err := s.workspacePath(p.TextDocument.URI)
	if !ok {
		return err
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		s.held -= int64(len(d.text))
		delete(s.docs, path)
		if s.parsed.doc == d {
			s.parsed = parsedBuffer{}
		}
	}
	if len(s.docs) < s.docsCap {
		s.toldFull = false
	}
	s.mu.Unlock()
	s.schedule(path, 0) // the file on disk is what counts now
	return nil
}

// schedule queues the stories path belongs to for a check after delay; a
// newer change of the same file resets the timer (debounce). The queue
// holds stories, not paths (so a flood of notifications naming made-up
// files queues nothing), and the checks run on one goroutine at a time
// (drain): a storm of edits, or a client that stops reading what the
// checks publish, queues each story once, never a goroutine or a check.
func (s *Server) schedule(path string, delay time.Duration) {
	var ms []string
	if delay <= 0 {
		ms = s.manifestsOf(path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.timers[path]; t != nil {
		t.Stop()
		delete(s.timers, path)
	}
	if s.stopped {
		return
	}
	if delay <= 0 {
		s.markDirty(ms)
		return
	}
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		defer s.survive("the debounce of "+path, "finding its stories")
		ms := s.manifestsOf(path)
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.timers[path] != t {
			return // a newer change, or flush, took the path
		}
		delete(s.timers, path)
		s.markDirty(ms)
	})
	s.timers[path] = t
}

// manifestsOf lists the stories to check when path changes
// (workspace.storiesOf), less an app.yaml that is neither a file, an open
// buffer nor a story checked before: a made-up name is no story.
func (s *Server) manifestsOf(path string) []string {
	root := s.rootOf(path)
	ms := s.ws.storiesOf(root, path)
	return slices.DeleteFunc(ms, func(m string) bool {
		if m != path || s.ws.known(m) {
			return false
		}
		s.mu.Lock()
		_, open := s.docs[m]
		s.mu.Unlock()
		if open {
			return false
		}
		if root == nil {
			return true
		}
		fi, err := root.Stat(m)
		return err != nil || !fi.Mode().IsRegular()
	})
}

// markDirty queues the stories at manifests for the next check and starts
// the drain goroutine unless one runs (s.mu held).
func (s *Server) markDirty(manifests []string) {
	if len(manifests) == 0 {
		return
	}
	for _, m := range manifests {
		s.dirty[m] = true
	}
	if !s.draining && !s.stopped {
		s.draining = true
		go s.drain()
	}
}

// drain checks the queued stories until none is left; the stories queued
// while a check runs are checked together after it, each once, with the
// buffers as they are then: the latest edit wins.
func (s *Server) drain() {
	for {
		s.checkMu.Lock()
		s.mu.Lock()
		ms := s.takeDirty()
		if len(ms) == 0 || s.stopped {
			s.draining = false
			s.mu.Unlock()
			s.checkMu.Unlock()
			return
		}
		s.mu.Unlock()
		s.checkStories(ms)
		s.checkMu.Unlock()
	}
}

// takeDirty empties the queue and returns its stories (s.mu held).
func (s *Server) takeDirty() []string {
	ms := slices.Sorted(maps.Keys(s.dirty))
	clear(s.dirty)
	return ms
}

// flush runs the checks still waiting out their debounce or queued now, and
// waits for a check already under way, so a request answers from the
// buffers as they are.
func (s *Server) flush() {
	s.mu.Lock()
	var waiting []string
	for p, t := range s.timers {
		t.Stop()
		delete(s.timers, p)
		waiting = append(waiting, p)
	}
	s.mu.Unlock()
	var ms []string
	for _, p := range waiting {
		ms = append(ms, s.manifestsOf(p)...)
	}
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	s.mu.Lock()
	for _, m := range ms {
		s.dirty[m] = true
	}
	ms = s.takeDirty()
	s.mu.Unlock()
	if len(ms) > 0 {
		s.checkStories(ms)
	}
}

// stopTimers ends the session's checking: no timer fires, nothing queued
// is checked.
func (s *Server) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	for _, t := range s.timers {
		t.Stop()
	}
	clear(s.timers)
	clear(s.dirty)
}

// buffers are the open buffers as one check reads them: the bytes, the
// text and the version of each, so what it publishes places its findings
// in, and labels them with, the text it checked, not one edited since.
type buffers struct {
	raw     map[string][]byte
	text    map[string]string
	version map[string]int32
}

// snapshot takes the open buffers (their bytes are shared: a reader must
// not change them).
func (s *Server) snapshot() buffers {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := buffers{raw: make(map[string][]byte, len(s.docs)), text: make(map[string]string, len(s.docs)), version: make(map[string]int32, len(s.docs))}
	for p, d := range s.docs {
		b.version[p] = d.version
		if d.unheld {
			continue
		}
		b.raw[p], b.text[p] = textBytes(d.text), d.text
	}
	return b
}

// text returns the buffer of path, or the file on disk.
func (s *Server) text(path string) (string, bool) {
	s.mu.Lock()
	d := s.docs[path]
	held := d != nil && !d.unheld
	var t string
	if held {
		t = d.text
	}
	s.mu.Unlock()
	if held {
		return t, true
	}
	b, ok := s.readInside(path)
	return string(b), ok
}

// readInside reads path, capped at maxFile, through the workspace root
// holding it: the open that reads is the confinement check, so a file
// swapped for a symlink leading out, or for a bigger file, after the root
// was chosen is refused or capped by that same read.
func (s *Server) readInside(path string) ([]byte, bool) {
	r := s.rootOf(path)
	if r == nil {
		return nil, false
	}
	if s.beforeRead != nil {
		s.beforeRead(path)
	}
	b, err := r.ReadFile(path, maxFile)
	return b, err == nil
}

func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c != nil {
		_ = c.Notify(context.Background(), method, params)
	}
}
