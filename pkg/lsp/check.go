package lsp

import (
	"cmp"
	"maps"
	"path/filepath"
	"slices"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/pkg/diag"
)

// checkStories checks the stories at manifests (each once) and publishes
// the diagnostics of each of their files (an empty list clears a fixed
// file). It runs with s.checkMu held, one check at a time, reading the
// buffers when it starts, so the last publish of a file reflects its
// latest text. A panic in one story's check is recorded (caught) and the
// others are checked.
func (s *Server) checkStories(manifests []string) {
	bufs := s.snapshot()
	for _, m := range slices.Compact(slices.Sorted(slices.Values(manifests))) {
		s.checkGuarded(m, bufs)
	}
}

// checkGuarded is checkStory with a panic recorded (survive): the drain
// goroutine and the request that flushed go on.
func (s *Server) checkGuarded(manifest string, bufs buffers) {
	defer s.survive("the check of "+manifest, "the check")
	s.checkStory(manifest, bufs)
}

// checkStory checks the story at manifest under its project root (inside
// the workspace root holding it) and publishes; a manifest outside every
// workspace root is skipped.
func (s *Server) checkStory(manifest string, bufs buffers) {
	root := s.storyRoot(manifest)
	if root == "" {
		return
	}
	if s.onCheck != nil {
		s.onCheck(manifest)
	}
	e, ds := s.ws.check(manifest, root, bufs.raw)
	s.publish(e, ds, bufs)
}

// publish sends one publishDiagnostics per file of the story, placed in
// and labelled with the buffers the check read (the file on disk for one
// not open, or not held).
func (s *Server) publish(e *entry, ds []diag.Diagnostic, bufs buffers) {
	byFile := map[string][]diag.Diagnostic{}
	for _, d := range ds {
		f := filepath.Clean(absPath(cmp.Or(d.File, e.manifest)))
		byFile[f] = append(byFile[f], d)
	}
	now := slices.Collect(maps.Keys(byFile))
	s.ws.mu.Lock()
	files := slices.Concat(e.files, now, s.ws.published[e.manifest])
	s.ws.published[e.manifest] = now
	s.ws.mu.Unlock()
	slices.Sort(files)
	files = slices.Compact(files)
	for _, f := range files {
		if !s.inside(f) {
			continue // an @kitsoki/ child elsewhere: not the workspace's
		}
		text, held := bufs.text[f]
		if !held {
			b, _ := s.readInside(f)
			text = string(b)
		}
		var version *protocol.UInteger
		if v, open := bufs.version[f]; open {
			version = new(protocol.UInteger(v))
		}
		ls := lines(text)
		shown, more := capFindings(byFile[f])
		list := make([]protocol.Diagnostic, 0, len(shown)+1)
		for _, d := range shown {
			list = append(list, toLSP(ls, d))
		}
		if more > 0 {
			list = append(list, moreFindings(f, more))
		}
		if n := s.unheldNote(f); n != nil {
			list = append(list, *n)
		}
		list = append(list, s.coverHints(f, text, ls)...)
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: pathURI(f), Version: version, Diagnostics: list})
	}
}

// toLSP converts a diagnostic; the range covers the token at its position,
// or only the name there when its did-you-mean offers a plain name (a
// world key typo inside `{{ world.nmae|upper }}`: the quick fix replaces
// nmae, not the filter after it).
func toLSP(ls []string, d diag.Diagnostic) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityInformation
	switch d.Severity {
	case diag.Error:
		sev = protocol.DiagnosticSeverityError
	case diag.Warning:
		sev = protocol.DiagnosticSeverityWarning
	}
	r := tokenRangeIn(ls, d.Line, d.Col)
	if m := didYouMeanRE.FindStringSubmatch(d.Message); m != nil && isName(m[1]) {
		if n, ok := nameRangeIn(ls, d.Line, d.Col); ok {
			r = n
		}
	}
	return protocol.Diagnostic{
		Range:    r,
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Rule},
		Source:   new("kitsoki"),
		Message:  d.Message,
	}
}
