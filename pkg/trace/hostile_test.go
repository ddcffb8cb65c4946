package trace

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CreateWith on a bad path names the path once and says what to do.
func TestCreateBadPaths(t *testing.T) {
	dir := t.TempDir()
	_, err := CreateWith(dir, Header{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "is a directory; name a trace file such as "+filepath.Join(dir, "run.jsonl")) {
		t.Fatalf("directory: %v", err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = CreateWith(filepath.Join(file, "run.jsonl"), Header{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot create its directory") {
		t.Fatalf("parent is a file: %v", err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(ro, "run.jsonl")
		_, err = CreateWith(p, Header{}, Options{})
		if !errors.Is(err, fs.ErrPermission) || strings.Count(err.Error(), p) != 1 {
			t.Fatalf("read-only dir: %v", err)
		}
	}
}

// CreateWith never truncates a file that is not a trace: a story manifest or a
// cassette named as the trace path by mistake survives.
func TestCreateRefusesToClobberNonTrace(t *testing.T) {
	dir := t.TempDir()
	story := filepath.Join(dir, "app.yaml")
	body := []byte("app: {id: x}\nroot: s\n")
	if err := os.WriteFile(story, body, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := CreateWith(story, Header{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "is not a kitsoki trace") {
		t.Fatalf("CreateWith over a story: %v", err)
	}
	if got, _ := os.ReadFile(story); string(got) != string(body) {
		t.Fatalf("story clobbered: %q", got)
	}
	// An old trace, an empty file and a header cut short by a crash are
	// taken over.
	for name, data := range map[string]string{
		"old.jsonl":   "{\"kind\":\"session.header\",\"schema_version\":1}\n{\"turn\":0}\n",
		"empty.jsonl": "",
		"cut.jsonl":   "{\"kind\":\"sess",
		"ws.jsonl":    "{ \"schema_version\": 1, \"kind\": \"session.header\" }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := CreateWith(p, Header{}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w.Close()
	}
}

// BenchmarkTimelineFeed renders a 1000-event trace as trace show does,
// control-character escaping included.
func BenchmarkTimelineFeed(b *testing.B) {
	data := synthBytes(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd := NewReader(bytes.NewReader(data), ReadOptions{})
		tl := &Timeline{}
		for {
			ev, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			tl.Feed(&ev)
		}
	}
}
