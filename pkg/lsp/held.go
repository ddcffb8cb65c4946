package lsp

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"
	"unsafe"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// defaultMaxOpenBytes is what the open buffers may hold together when
// Options.MaxOpenBytes is 0: two buffers at the story YAML cap (each held
// once: the checks read the text's own bytes, textBytes).
const defaultMaxOpenBytes = 2 * maxFile

// maxEditWork bounds what one didChange's ranged edits may copy: each edit
// copies the buffer, so a message of a million one-byte edits to a 64 MiB
// buffer would copy it a million times. Past it the buffer is dropped as
// one that does not fit (the file on disk stands for it until the editor
// sends the whole text); an editor's own edits copy a few buffers' worth.
const maxEditWork = 1 << 30

func (s *Server) maxOpen() int64 { return s.opts.maxOpen() }

func (o Options) maxOpen() int64 { return cmp.Or(max(o.MaxOpenBytes, 0), defaultMaxOpenBytes) }

// hold sets d's text when it fits in what is left of MaxOpenBytes, and
// says whether it did; one that does not is not held (d.unheld): the file
// on disk stands for it until a change that fits or a reopen (s.mu held),
// so an editor opening every file of a repository cannot exhaust memory.
func (s *Server) hold(d *document, text string) bool {
	s.held -= int64(len(d.text))
	d.text, d.over = "", false
	d.gen++
	size := min(int64(len(text)), maxFile+1)
	if s.held+size > s.maxOpen() {
		d.unheld = true
		return false
	}
	d.unheld, d.why = false, ""
	// cut past the cap: no buffer, however sent or grown, holds more than
	// maxFile+1 bytes
	d.text, d.over = text, int64(len(text)) > maxFile
	if d.over {
		d.text = strings.Clone(text[:maxFile+1])
	}
	s.held += int64(len(d.text))
	return true
}

// drop stops holding d's text because of too much edit work (s.mu held):
// the file on disk stands for it, as for one that does not fit.
func (s *Server) drop(d *document, edits int) {
	s.held -= int64(len(d.text))
	size := len(d.text)
	d.text, d.over, d.unheld = "", false, true
	d.gen++
	d.why = fmt.Sprintf("one change sent %d or more ranged edits of a %d KiB buffer, over the %d MiB of copying kitsoki lsp does for one change", edits, size>>10, s.editWorkCap>>20)
}

// unheldMessage tells the client that path's buffer is not held, and why
// (why "": the open buffers are full).
func (s *Server) unheldMessage(path, why string) string {
	if why != "" {
		return fmt.Sprintf("kitsoki lsp: %s is not checked as edited: %s, so the file as saved on disk is checked instead; reopen the file, or send it whole", filepath.Base(path), why)
	}
	return fmt.Sprintf("kitsoki lsp: %s is not checked as edited: the open files hold %d MiB, the most kitsoki lsp keeps, so the file as saved on disk is checked instead; close other files, or save this one", filepath.Base(path), s.maxOpen()>>20)
}

// tellUnheld shows the client that path's buffer is not held (the
// publish of its story repeats it as a diagnostic).
func (s *Server) tellUnheld(path string) {
	why, _ := s.unheldWhy(path)
	s.notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: s.unheldMessage(path, why)})
}

// unheldNote is the diagnostic on a file whose buffer is not held (nil
// when it is held, or not open).
func (s *Server) unheldNote(path string) *protocol.Diagnostic {
	why, unheld := s.unheldWhy(path)
	if !unheld {
		return nil
	}
	return &protocol.Diagnostic{Severity: new(protocol.DiagnosticSeverityWarning), Source: new("kitsoki"),
		Code: &protocol.IntegerOrString{Value: "open-buffers"}, Message: s.unheldMessage(path, why)}
}

// unheldWhy says whether path is open with its buffer not held, and why.
func (s *Server) unheldWhy(path string) (why string, unheld bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil && d.unheld {
		return d.why, true
	}
	return "", false
}

// textBytes is text as the bytes a check reads (the loader's overlay),
// sharing text's memory so that each open buffer is held once, as the
// open-bytes cap counts it. The loader only reads overlay bytes, never
// writes them (TestOverlaySharesTheText).
func textBytes(text string) []byte { return unsafe.Slice(unsafe.StringData(text), len(text)) }
