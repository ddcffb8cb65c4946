package agent

import (
	"bytes"
	"kitsoki/internal/proc"
	"log/slog"
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits shared by the process-based transports (subprocess, claude_cli).
const (
	// stderrTailBytes is how much of a plugin's stderr a plugin_crash keeps.
	stderrTailBytes = 8 << 10
	// detailSnippetBytes bounds raw plugin bytes echoed into an error Detail.
	detailSnippetBytes = 256
	// maxFrameBytes bounds one JSON-RPC answer line (and the claude CLI's
	// stdout). A larger answer is a plugin_crash, never an unbounded read.
	maxFrameBytes = 64 << 20
)

// redactOrIdentity returns bc.Redact, or the identity when the caller gave none.
func redactOrIdentity(f func(string) string) func(string) string {
	if f == nil {
		return func(s string) string { return s }
	}
	return f
}

// detailSnippet redacts s and cuts it to detailSnippetBytes (on a rune boundary),
// marking the cut with "...".
func detailSnippet(redact func(string) string, s string) string {
	s = redact(s)
	if len(s) <= detailSnippetBytes {
		return s
	}
	cut := detailSnippetBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// stderrTail keeps the last stderrTailBytes of a plugin's stderr and
// forwards every complete line to the debug logger. Both outputs are
// redacted. Safe for one writer and concurrent readers.
type stderrTail struct {
	alias  string
	log    *slog.Logger
	redact func(string) string
	// cut picks where a too-long line may be split (redactor.safeCut);
	// nil splits anywhere.
	cut func(s string, n int) int

	kept *proc.Tail // the last stderrTailBytes

	mu   sync.Mutex
	line []byte // the incomplete last line, for the logger
}

func newStderrTail(alias string, log *slog.Logger, redact func(string) string) *stderrTail {
	return &stderrTail{alias: alias, log: log, redact: redact, kept: proc.NewTail(stderrTailBytes)}
}

func (s *stderrTail) Write(b []byte) (int, error) {
	s.kept.Write(b)
	if s.log == nil {
		return len(b), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line = append(s.line, b...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		s.logLine(s.line[:i])
		s.line = s.line[i+1:]
	}
	if len(s.line) > stderrTailBytes { // a very long line: log it in pieces
		c := len(s.line)
		if s.cut != nil { // never inside a secret, so each piece masks alone
			c = s.cut(string(s.line), c)
		}
		if c > 0 {
			s.logLine(s.line[:c])
			s.line = append(s.line[:0], s.line[c:]...)
		}
	}
	return len(b), nil
}

func (s *stderrTail) logLine(l []byte) {
	l = bytes.TrimRight(l, "\r")
	if len(l) == 0 {
		return
	}
	s.log.Debug("agent plugin stderr", "agent", s.alias, "line", s.redact(string(l)))
}

// String is the redacted tail. When the front was dropped, the first,
// partial line is dropped too so no half of a secret can survive the cut.
func (s *stderrTail) String() string {
	return s.redact(strings.TrimRight(s.kept.Lines(), "\r\n"))
}
