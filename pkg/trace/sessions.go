package trace

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/internal/sleep"
)

// DefaultSessionsDir is where kitsoki run writes traces by default,
// relative to the working directory.
const DefaultSessionsDir = ".kitsoki/sessions"

var slugRE = &lazyre.Regexp{Expr: `[^A-Za-z0-9._-]+`}

// NewSessionID names a run's session, and so its trace under
// DefaultSessionsDir: "<UTC 20060102T150405Z>-<app>-<4 random hex>", the
// app id with every run of other characters as one "-".
func NewSessionID(app string, now time.Time) string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	app = cmp.Or(slugRE.ReplaceAllString(app, "-"), "story")
	return now.UTC().Format("20060102T150405Z") + "-" + app + "-" + hex.EncodeToString(b[:])
}

// TraceFile is one trace found under a sessions directory.
type TraceFile struct {
	Path    string    `json:"path"`
	ID      string    `json:"id"` // base name without .jsonl
	ModTime time.Time `json:"modified"`
	Size    int64     `json:"size"`
	AppID   string    `json:"app_id,omitempty"`
	rel     string    // the name below the sessions directory it was listed in
}

// MaxSessionsDepth bounds how deep [Sessions.List] descends below the
// sessions directory; a deeper tree is skipped with one warning.
const MaxSessionsDepth = 64

// cmpTrace orders traces newest first, then by path.
func cmpTrace(a, b TraceFile) int {
	return cmp.Or(b.ModTime.Compare(a.ModTime), strings.Compare(a.Path, b.Path))
}

// PeekAppID reads the app_id of a trace's header (first line, at most
// 64 KiB); "" when absent or unreadable.
func PeekAppID(path string) string {
	f, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return ""
	}
	defer f.Close()
	return peekAppID(f)
}

// peekAppID is PeekAppID of an opened trace.
func peekAppID(f io.Reader) string {
	// Most headers fit in a small first read: trace ls peeks at every
	// file of a listing.
	var small [4 << 10]byte
	n, _ := io.ReadFull(f, small[:])
	line := small[:n]
	switch i := bytes.IndexByte(line, '\n'); {
	case i >= 0:
		line = line[:i+1]
	case n < len(small):
		return "" // the file ends before its header line does
	default:
		rest, err := bufio.NewReaderSize(io.LimitReader(f, 64<<10-int64(n)), 64<<10).ReadSlice('\n')
		if err != nil {
			return ""
		}
		line = append(line, rest...)
	}
	return headerExtras(line).AppID
}

// Resolve turns a PATH argument into a trace path: "-" (stdin) or an
// existing file. Any other argument without a path separator is an id or
// substring to look up under the sessions directory dir with
// [Sessions.Find]: lookup is then true.
func Resolve(arg, dir string) (path string, lookup bool, err error) {
	if arg == "-" {
		return "-", false, nil
	}
	if st, err := os.Stat(arg); err == nil {
		if st.IsDir() {
			return "", false, fmt.Errorf("%s is a directory; pass a trace file, or an id to look up under %s", arg, dir)
		}
		return arg, false, nil
	}
	if strings.ContainsRune(arg, os.PathSeparator) || strings.ContainsRune(arg, '/') {
		return "", false, fmt.Errorf("open trace %q: no such file", arg)
	}
	return "", true, nil
}

// Find returns the newest listed trace whose id is arg (less a .jsonl
// suffix), else the newest whose id contains it.
func (s *Sessions) Find(arg string) (TraceFile, error) {
	list, err := s.List(nil)
	if err != nil {
		return TraceFile{}, err
	}
	want := strings.TrimSuffix(arg, ".jsonl")
	for _, tf := range list {
		if tf.ID == want {
			return tf, nil
		}
	}
	for _, tf := range list {
		if strings.Contains(tf.ID, want) {
			return tf, nil
		}
	}
	if strings.HasSuffix(arg, ".jsonl") {
		return TraceFile{}, fmt.Errorf("open trace %q: no such file, and no session trace under %s has that id (check the path, or list traces with kitsoki trace ls)", arg, s.Dir)
	}
	return TraceFile{}, fmt.Errorf("no session trace found under %s matching %q (pass an explicit path, or run a session first)", s.Dir, arg)
}

// Follow reads f and, at its end, polls for more until ctx is done; a file
// that shrinks under it is an error.
func Follow(ctx context.Context, f *os.File, poll time.Duration) io.Reader {
	if poll <= 0 {
		poll = 200 * time.Millisecond
	}
	return &followReader{ctx: ctx, f: f, poll: poll}
}

type followReader struct {
	ctx  context.Context
	f    *os.File
	poll time.Duration
	off  int64
}

func (r *followReader) Read(p []byte) (int, error) {
	for {
		n, err := r.f.Read(p)
		r.off += int64(n)
		if n > 0 {
			return n, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if st, serr := r.f.Stat(); serr == nil && st.Size() < r.off {
			return 0, fmt.Errorf("trace %s was truncated while following it (a new run started writing it)", r.f.Name())
		}
		if sleep.For(r.ctx, r.poll) != nil {
			return 0, io.EOF
		}
	}
}
