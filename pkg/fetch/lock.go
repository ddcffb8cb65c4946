package fetch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"kitsoki/internal/filelock"
	"kitsoki/internal/sleep"
)

// fileLock is a cross-process lock held on a *.lock file in the cache. The
// holder removes the file before it unlocks (where the OS allows), so a
// waiter that took the lock on the removed file starts again on the
// current one (stillNamed).
type fileLock struct {
	f    *os.File
	path string
}

// lockArtifact creates the directory that holds path and takes path's
// lock (<path>.lock), reporting PhaseWait while another process holds it.
func (f *Fetcher) lockArtifact(ctx context.Context, a *Artifact, path string) (*fileLock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create cache dir %s: %w (%s to a writable directory)", filepath.Dir(path), err, setCacheDir)
	}
	return lockFile(ctx, path+".lock", func() { f.report(Progress{Artifact: a, Phase: PhaseWait}) })
}

// lockFile takes the lock on path, polling until it is free or ctx ends.
func lockFile(ctx context.Context, path string, onWait func()) (*fileLock, error) {
	waited := false
	for {
		f, err := openCacheFile(path)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w (check that the cache dir is writable, or %s)", path, err, setCacheDir)
		}
		for {
			held, err := filelock.Try(f)
			if err == nil {
				break
			}
			if !held {
				f.Close()
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			if !waited && onWait != nil {
				onWait()
			}
			waited = true
			if err := sleep.For(ctx, 50*time.Millisecond); err != nil {
				f.Close()
				return nil, fmt.Errorf("waiting for another kitsoki process holding %s: %w", path, err)
			}
		}
		if stillNamed(f, path) {
			return &fileLock{f: f, path: path}, nil
		}
		// The previous holder removed the file we locked: retry on the new one.
		_ = filelock.Unlock(f)
		f.Close()
	}
}

// stillNamed reports whether path still names the open file f.
func stillNamed(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

func (l *fileLock) release() {
	if l == nil || l.f == nil {
		return
	}
	if filelock.RemovableWhileHeld {
		_ = os.Remove(l.path)
	}
	_ = filelock.Unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}
