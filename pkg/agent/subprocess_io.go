package agent

import (
	"bytes"
	"log/slog"
	"os"
	"runtime"
	"slices"
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

// inheritedEnv lists the variables a subprocess plugin inherits from
// kitsoki's environment; everything else must be given in env:. The list is
// what a program needs to find executables, write temp files and decode
// text: PATH, HOME, USER, LOGNAME, SHELL, TMPDIR/TEMP/TMP, LANG, LANGUAGE,
// LC_*, TZ, TERM, plus the Windows essentials (SYSTEMROOT, COMSPEC, PATHEXT,
// USERPROFILE, APPDATA, LOCALAPPDATA, PROGRAMDATA, WINDIR).
var inheritedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TEMP", "TMP",
	"LANG", "LANGUAGE", "TZ", "TERM",
	"SYSTEMROOT", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "WINDIR",
}

// minimalEnv builds a plugin environment: the inherited variables of
// parent (os.Environ() form) plus extra, which wins on a clash. The result is
// sorted by key so the child sees a deterministic environment.
func minimalEnv(parent []string, extra map[string]string) []string {
	m := map[string]string{}
	for _, kv := range parent {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if inheritedKey(k) {
			m[k] = v
		}
	}
	for k, v := range extra {
		if runtime.GOOS == "windows" {
			for have := range m {
				if strings.EqualFold(have, k) {
					delete(m, have)
				}
			}
		}
		m[k] = v
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

func inheritedKey(k string) bool {
	if runtime.GOOS == "windows" {
		k = strings.ToUpper(k)
	}
	return strings.HasPrefix(k, "LC_") || slices.Contains(inheritedEnv, k)
}

// fullEnv is os.Environ() plus extra (extra wins), for programs such as the
// claude CLI that need the user's whole configuration.
func fullEnv(extra map[string]string) []string {
	env := os.Environ()
	if len(extra) == 0 {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := extra[k]; !over {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}

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

	mu      sync.Mutex
	buf     []byte // the tail; at most stderrTailBytes
	wrapped bool   // bytes were dropped from the front
	line    []byte // the incomplete last line, for the logger
}

func newStderrTail(alias string, log *slog.Logger, redact func(string) string) *stderrTail {
	return &stderrTail{alias: alias, log: log, redact: redact}
}

func (s *stderrTail) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, b...)
	if over := len(s.buf) - stderrTailBytes; over > 0 {
		s.buf = append(s.buf[:0], s.buf[over:]...)
		s.wrapped = true
	}
	if s.log == nil {
		return len(b), nil
	}
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
	s.mu.Lock()
	b := s.buf
	if s.wrapped {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	out := s.redact(strings.TrimRight(string(b), "\r\n"))
	s.mu.Unlock()
	return out
}
