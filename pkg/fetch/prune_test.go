package fetch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/filelock"
)

// Orphans finds what no pin names (an earlier release directory and its
// record, an earlier archive's part, weights of a dropped model) and
// nothing else: pinned entries, staging directories and files outside the
// layout stay. Prune removes an orphan's files, a symlink but never its
// target, and leaves one another process holds the lock of.
func TestOrphansAndPrune(t *testing.T) {
	serverSum := sum256([]byte("release archive"))
	modelSum := sum256([]byte("weights"))
	p, err := LoadPins(writeOverlay(t, `llama_server:
  test/x:
    id: llama-server-test
    release: b1
    url: http://127.0.0.1:9/l.tar.gz
    sha256: `+serverSum+`
    format: tar.gz
    members: [llama-server]
models:
  test-model:
    id: test-model
    url: http://127.0.0.1:9/m.gguf
    sha256: `+modelSum+`
`))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	f := &Fetcher{CacheDir: cache}
	outside := filepath.Join(t.TempDir(), "precious.gguf")
	write := func(rel, body string) string {
		path := filepath.Join(cache, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a, _ := p.LlamaServer("test", "x")
	keepRelease := write(filepath.Join("bin", "llama-"+sha12(serverSum), "llama-server"), "bin")
	keepArchive, _ := f.Path(a)
	write(filepath.Join("archives", filepath.Base(keepArchive)), "tgz")
	keepModel := write(filepath.Join("models", "test-model.gguf"), "weights")
	write(filepath.Join("models", "nomic-embed-text-v1.5.gguf"), "pinned by the embedded pins")
	kept := []string{keepRelease, keepModel,
		write(filepath.Join("bin", ".stage-llama-aaaaaaaaaaaa-1", "x"), "staging"),
		write(filepath.Join("bin", "notes.txt"), "not ours"),
		write(filepath.Join("models", "README"), "not ours")}

	oldRelease := write(filepath.Join("bin", "llama-aaaaaaaaaaaa", "llama-server"), "old binary")
	oldRecord := write(filepath.Join("bin", "llama-aaaaaaaaaaaa.json"), "{}")
	oldPart := write(filepath.Join("archives", "llama-server-old-bbbbbbbbbbbb.tar.gz.part"), "12345")
	write(filepath.Join("archives", "llama-server-old-bbbbbbbbbbbb.tar.gz.part.json"), "{}")
	dropped := write(filepath.Join("models", "dropped.gguf"), "old weights")
	write(filepath.Join("models", "dropped.gguf.json"), "{}")
	os.WriteFile(outside, []byte("not the cache's"), 0o644)
	link := filepath.Join(cache, "models", "linked.gguf")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}

	orphans, err := f.Orphans(p)
	if err != nil {
		t.Fatal(err)
	}
	var bases []string
	for _, o := range orphans {
		bases = append(bases, strings.TrimPrefix(o.Path, cache+string(filepath.Separator)))
	}
	want := "bin/llama-aaaaaaaaaaaa archives/llama-server-old-bbbbbbbbbbbb.tar.gz models/dropped.gguf models/linked.gguf"
	if got := strings.Join(bases, " "); got != filepath.FromSlash(want) {
		t.Fatalf("orphans %q, want %q", got, want)
	}
	if orphans[0].Bytes != int64(len("old binary")+len("{}")) {
		t.Errorf("release orphan counts %d bytes", orphans[0].Bytes)
	}

	// Another process holds the dropped model's lock: it stays.
	lf, err := os.OpenFile(filepath.Join(cache, "models", "dropped.gguf.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := filelock.Try(lf); err != nil {
		t.Fatal(err)
	}
	for _, o := range orphans {
		err := f.Prune(o)
		if o.Path == filepath.Join(cache, "models", "dropped.gguf") {
			if !errors.Is(err, ErrInUse) {
				t.Errorf("prune of a locked orphan: %v", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("prune %s: %v", o.Path, err)
		}
	}
	filelock.Unlock(lf)
	lf.Close()
	for _, gone := range []string{oldRelease, oldRecord, oldPart, link} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s survived the prune: %v", gone, err)
		}
	}
	for _, stay := range append(kept, dropped, outside) {
		if _, err := os.Stat(stay); err != nil {
			t.Errorf("%s was removed: %v", stay, err)
		}
	}
}
