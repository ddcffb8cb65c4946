package fetch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// interruptedDownload leaves a partial download of a 1 MiB model and its
// record in a new cache, as a fetch cut off halfway does.
func interruptedDownload(t *testing.T, seed int64) (*Fetcher, *Artifact, string) {
	t.Helper()
	data := randomData(1<<20, seed)
	fs := newFileServer(t, data)
	fs.cut(int64(len(data)/2), 1)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	f.Retries = 1
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "partial download is kept") {
		t.Fatalf("first call: %v", err)
	}
	dest, _ := f.Path(a)
	return f, a, dest
}

// A link planted in a shared or restored cache where a download's partial
// file or lock goes is never followed: the fetch fails naming the path,
// and the file the link names is neither written nor created (the resumed
// download was written into it, and a dangling lock link created its
// target).
func TestDownloadNeverWritesThroughALinkInTheCache(t *testing.T) {
	for _, which := range []string{".part", ".lock"} {
		t.Run(which, func(t *testing.T) {
			f, a, dest := interruptedDownload(t, 3)
			outside := filepath.Join(t.TempDir(), "precious")
			if err := os.WriteFile(outside, []byte("the user's file"), 0o644); err != nil {
				t.Fatal(err)
			}
			created := filepath.Join(t.TempDir(), "created")
			target := outside
			if which == ".lock" {
				target = created // a dangling link: the open would create it
			}
			os.Remove(dest + which)
			if err := os.Symlink(target, dest+which); err != nil {
				t.Fatal(err)
			}
			_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
			if err == nil || !strings.Contains(err.Error(), dest+which) || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("err = %v, want a refusal naming %s", err, dest+which)
			}
			if b, _ := os.ReadFile(outside); string(b) != "the user's file" {
				t.Fatalf("the file outside the cache was written: %d bytes", len(b))
			}
			if _, err := os.Lstat(created); err == nil {
				t.Fatal("the open through the dangling link created a file outside the cache")
			}
		})
	}
}

// Prune of an orphan whose lock is a link out of the cache removes the
// link and creates nothing where it pointed.
func TestPruneNeverCreatesThroughALockLink(t *testing.T) {
	p, err := LoadPins(writeOverlay(t, "models: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	f := &Fetcher{CacheDir: cache}
	models := filepath.Join(cache, "models")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(models, "gone.gguf"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	created := filepath.Join(t.TempDir(), "created")
	if err := os.Symlink(created, filepath.Join(models, "gone.gguf.lock")); err != nil {
		t.Fatal(err)
	}
	orphans, err := f.Orphans(p)
	if err != nil || len(orphans) != 1 {
		t.Fatalf("orphans %+v %v", orphans, err)
	}
	if err := f.Prune(orphans[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(created); err == nil {
		t.Fatal("prune created a file outside the cache through the lock link")
	}
	if ents, _ := os.ReadDir(models); len(ents) != 0 {
		t.Fatalf("left in the cache: %v", ents)
	}
}
