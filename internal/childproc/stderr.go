package childproc

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/human"
	"kitsoki/internal/proc"
)

const (
	// stderrTailBytes is how much of a child's stderr an error quotes.
	stderrTailBytes = 8 << 10
	// snippetBytes bounds raw child bytes echoed into an error.
	snippetBytes = 256
)

// redactWith masks secrets in s with redact; nil leaves it as it is.
func redactWith(redact func(string) string, s string) string {
	if redact == nil {
		return s
	}
	return redact(s)
}

// Snippet is s redacted and cut to 256 bytes on a rune boundary, the cut
// marked with "...": how raw bytes from a child (or a server) are quoted
// in an error.
func Snippet(redact func(string) string, s string) string {
	s = redactWith(redact, s)
	if len(s) <= snippetBytes {
		return s
	}
	return s[:human.RuneCut(s, snippetBytes)] + "..."
}

// Stderr is a child's stderr: it keeps the last 8 KiB for errors and
// forwards every complete line to the debug logger. Both outputs are
// redacted. Pass it as the command's Stderr; safe for one writer and
// concurrent readers.
type Stderr struct {
	log    *slog.Logger
	msg    string
	attrs  []any
	redact func(string) string
	cut    func(s string, n int) int

	kept *proc.Tail

	mu   sync.Mutex
	line []byte // the incomplete last line, for the logger
	// panicked: a "panic:" or "fatal error:" line was seen; the rest of
	// the stream (its stack) is logged at error level.
	panicked bool
}

// NewStderr returns a Stderr that logs each line as msg with attrs and
// "line" (log may be nil), at the level the line names (lineLevel), masking
// with redact. cut, when
// set, picks where a line too long to hold may be split for the log
// (never inside a secret); nil splits anywhere.
func NewStderr(log *slog.Logger, msg string, attrs []any, redact func(string) string, cut func(s string, n int) int) *Stderr {
	return &Stderr{log: log, msg: msg, attrs: attrs, redact: redact, cut: cut, kept: proc.NewTail(stderrTailBytes)}
}

func (s *Stderr) Write(b []byte) (int, error) {
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

func (s *Stderr) logLine(l []byte) {
	l = bytes.TrimRight(l, "\r")
	if len(l) == 0 {
		return
	}
	lvl := lineLevel(l)
	if bytes.HasPrefix(l, []byte("panic:")) || bytes.HasPrefix(l, []byte("fatal error:")) {
		s.panicked = true
	}
	if s.panicked {
		lvl = slog.LevelError
	}
	s.log.Log(context.Background(), lvl, s.msg, append(slices.Clip(s.attrs), "line", redactWith(s.redact, string(l)))...)
}

// levelPrefixes are the level tags a child may start a stderr line with
// (the hclog and Go log convention), and the log level each stands for.
var levelPrefixes = []struct {
	tag string
	lvl slog.Level
}{
	{"[TRACE]", slog.LevelDebug}, {"[DEBUG]", slog.LevelDebug}, {"[INFO]", slog.LevelInfo},
	{"[WARN]", slog.LevelWarn}, {"[WARNING]", slog.LevelWarn}, {"[ERROR]", slog.LevelError},
}

// lineLevel is the level a stderr line asks for: a leading level tag
// (after an optional timestamp: the tag is looked for in the first 40
// bytes), or the "level"/"@level" field of a JSON log line; debug
// otherwise, so an untagged chatty child stays out of an operator's log.
func lineLevel(l []byte) slog.Level {
	head := l[:min(len(l), 40)]
	for _, p := range levelPrefixes {
		if bytes.Contains(head, []byte(p.tag)) {
			return p.lvl
		}
	}
	if len(l) > 0 && l[0] == '{' {
		var f struct {
			Level   string `json:"level"`
			HCLevel string `json:"@level"`
		}
		if json.Unmarshal(l, &f) == nil {
			switch strings.ToLower(cmp.Or(f.Level, f.HCLevel)) {
			case "info":
				return slog.LevelInfo
			case "warn", "warning":
				return slog.LevelWarn
			case "error", "fatal", "panic":
				return slog.LevelError
			}
		}
	}
	return slog.LevelDebug
}

// String is the redacted tail. When the front was dropped, the first,
// partial line is dropped too so no half of a secret can survive the cut.
func (s *Stderr) String() string {
	return redactWith(s.redact, strings.TrimRight(s.kept.Lines(), "\r\n"))
}
